package command

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// Faults are the seams where a mutant of the reference host breaks one
// command guarantee (S000 "Required host guarantees", Commands). The zero
// value switches none on and is the conformant runner; only the mutants
// set a field.
type Faults struct {
	// OtherInterpreter spawns OtherInterpreterPath with the published
	// argument prefix instead of the published executable.
	OtherInterpreter bool
	// ImplicitShell hands the published argv, joined with spaces, to the
	// published interpreter again, as Node's spawn with shell: true does.
	ImplicitShell bool
	// CwdEscape accepts a cwd that leaves the workspace, lexically or
	// through a symlink.
	CwdEscape bool
	// IgnoreCallTimeout ignores the request's TimeoutMs (the default
	// timeout and the deadlines still apply).
	IgnoreCallTimeout bool
	// IgnoreCancellation lets the command run on when the call's context
	// is canceled.
	IgnoreCancellation bool
	// LeaveProcessGroup signals only the interpreter, never its process
	// group, and leaves survivors of a finished command running.
	LeaveProcessGroup bool
	// UnboundedOutput retains up to UnboundedOutputBytes per stream,
	// whatever the request's bound.
	UnboundedOutput bool
	// StdinOpen gives the command a pipe as stdin that stays open until the
	// command ends, instead of the null device.
	StdinOpen bool
	// SkipContainmentGate spawns commands when containment is required but
	// no verified backend is active.
	SkipContainmentGate bool

	// Containment of item 28.

	// BypassActiveContainment spawns the interpreter directly, outside the
	// sandbox, while the status still reports the backend active and
	// verified.
	BypassActiveContainment bool
	// TruncateSpill keeps only as many bytes of a stream in its spill file
	// as the stream's bound retains, so the spill of a truncated output is
	// incomplete.
	TruncateSpill bool
	// TerminalStdin gives the command a pseudo-terminal as stdin (where the
	// platform has one), as a host that runs commands in a terminal does.
	TerminalStdin bool

	// Process lifetime, deadlines, exits and spills (items 5, 6, 53).

	// TermWithoutKill ends a canceled or timed-out command with SIGTERM to
	// its process group only: no SIGKILL follows, and the host answers once
	// the interpreter is gone, so a member that ignores SIGTERM runs on.
	TermWithoutKill bool
	// TimeoutSignalsChildOnly kills only the interpreter when the timeout
	// fires, as exec.CommandContext does, and leaves the rest of its
	// process group running; cancellation still ends the whole group.
	TimeoutSignalsChildOnly bool
	// IgnoreCallDeadline ignores the deadline of the call (tool/execute
	// timeoutMs): only the command's own timeoutMs bounds it, while a
	// cancellation still ends it.
	IgnoreCallDeadline bool
	// SignalExitZero reports a command ended by a signal as exit code 0
	// (a `code ?? 0` default) instead of a non-zero code.
	SignalExitZero bool
	// MergeSpill writes both streams into the stdout spill file as they
	// arrive, interleaved, and keeps no stderr spill file.
	MergeSpill bool
	// UnboundedStderr bounds stdout but retains up to UnboundedOutputBytes
	// of stderr: the bound applied to one stream and not its neighbour.
	UnboundedStderr bool
	// SpillStdoutOnly keeps a spill file for stdout alone, so a truncated
	// stderr has no complete copy.
	SpillStdoutOnly bool
	// SpawnLoginShell spawns the interpreter named by the host's SHELL
	// variable, when set, with the published argument prefix, while the
	// published executable stays /bin/sh.
	SpawnLoginShell bool
	// CwdPrefixCheck decides that a cwd's real path lies beneath the root
	// when it starts with the root's path as a string, so <root>-other
	// passes as well.
	CwdPrefixCheck bool
	// CwdLexicalOnly refuses a cwd that leaves the workspace lexically
	// ('..', absolute) but follows a symlink out of it.
	CwdLexicalOnly bool

	// Commands and correlation: the interpreter that spawns and the
	// environment the host publishes come from different values (S000 C4).

	// OwnArgumentsPrefix spawns the published executable with an argument
	// prefix of its own (-e before the published one) instead of the
	// published prefix.
	OwnArgumentsPrefix bool
	// SpawnByName spawns the published executable by its bare name,
	// resolved through PATH when the command starts, instead of the
	// published path.
	SpawnByName bool
	// InterpreterFromCallEnv takes the interpreter from SHELL in the
	// call's env, when set, instead of the published executable.
	InterpreterFromCallEnv bool
}

// OtherInterpreterPath is the interpreter the OtherInterpreter fault
// spawns.
const OtherInterpreterPath = "/bin/bash"

// UnboundedOutputBytes is the per-stream retention under the
// UnboundedOutput fault: far beyond MaxOutputBytes.
const UnboundedOutputBytes = 64 << 20

// argv is the argv the runner spawns for command: the published
// interpreter's, unless a fault changes it. callEnv is the call's own env,
// read only by the InterpreterFromCallEnv fault.
func (r *Runner) argv(command string, callEnv map[string]string) []string {
	argv := r.env.Command.Argv(command)
	switch {
	case r.faults.OwnArgumentsPrefix:
		argv = append([]string{argv[0], "-e"}, argv[1:]...)
	case r.faults.SpawnByName:
		argv[0] = filepath.Base(argv[0])
	case r.faults.InterpreterFromCallEnv && callEnv["SHELL"] != "":
		argv[0] = callEnv["SHELL"]
	case r.faults.OtherInterpreter:
		argv[0] = OtherInterpreterPath
	case r.faults.ImplicitShell:
		argv = r.env.Command.Argv(strings.Join(argv, " "))
	case r.faults.SpawnLoginShell && r.loginShell != "":
		argv[0] = r.loginShell
	}
	return argv
}

// escapingCwd resolves rel as the CwdEscape fault does: joined to the root
// and resolved, with no containment check.
func escapingCwd(root, rel string) (string, error) {
	if rel == "" {
		rel = "."
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return "", &hosterr.Error{Library: library, Code: hosterr.NotFound, Message: "Command cwd was not found: '" + rel + "'.", Err: err}
	}
	return real, nil
}

// withoutDeadline returns a context that ends when ctx is canceled but not
// when its deadline passes, as the IgnoreCallDeadline fault wants; stop
// releases it.
func withoutDeadline(ctx context.Context) (context.Context, func()) {
	nctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	unhook := context.AfterFunc(ctx, func() {
		if errors.Is(ctx.Err(), context.Canceled) {
			cancel()
		}
	})
	return nctx, func() {
		unhook()
		cancel()
	}
}
