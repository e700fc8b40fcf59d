package kit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/proc"
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// answerGrace is how long after a host answered a call that ended its
// command (canceled or timed out) the command's processes may take to
// disappear from the process table: the host ends the process group
// before it answers, and the kernel's teardown of a killed process is not
// instant. A member that ignores SIGTERM outlives it unless the host
// escalates.
const answerGrace = time.Second

// liveAfter polls the listed PIDs for up to answerGrace and returns those
// still alive then. Each is killed, so that nothing is left running, when
// it still works in the workspace (where /proc shows it), which a PID
// reused by another process would not.
func liveAfter(workspace string, pids []int) []int {
	end := time.Now().Add(answerGrace)
	for {
		var live []int
		for _, pid := range pids {
			if proc.Alive(pid) {
				live = append(live, pid)
			}
		}
		if len(live) == 0 || time.Now().After(end) {
			for _, pid := range live {
				if workingIn(pid, workspace) {
					proc.Kill(pid)
				}
			}
			return live
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// workingIn reports whether process pid works in dir or beneath it, as
// /proc shows it; true where there is no /proc to ask.
func workingIn(pid int, dir string) bool {
	cwd, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "cwd"))
	if err != nil {
		_, statErr := os.Stat("/proc/self")
		return statErr != nil
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return cwd == dir || strings.HasPrefix(cwd, dir+string(filepath.Separator))
}

// readPIDs reads the PIDs a command wrote to file, one a line; nil when
// the file is missing or holds something else.
func readPIDs(file string) []int {
	pids, _ := proc.ReadPIDs(file)
	return pids
}

// GroupGoneAtAnswer is an AnswerProbe for a canceled or timed-out call
// whose command wrote the PIDs of its interpreter and of its children to
// the workspace file pids: at the moment the host answers, every one of
// them is gone within answerGrace. The scenario must run uncontained
// (conform.forbidContainmentBackends), so that the PIDs are the harness's
// own; a missing PIDs file is left to the scenario's later checks.
func GroupGoneAtAnswer(callID, pids string) AnswerProbe {
	return func(workspace string) string {
		listed := readPIDs(filepath.Join(workspace, pids))
		if len(listed) == 0 {
			return ""
		}
		if live := liveAfter(workspace, listed); len(live) > 0 {
			return fmt.Sprintf("%d of the %d processes the command of %s listed in %s were still alive %s after the host answered the call (the harness killed them); a host must terminate the command's whole process group, escalating past SIGTERM, before it answers",
				len(live), len(listed), callID, pids, answerGrace)
		}
		return ""
	}
}

// uncontainedHost starts a fresh process of the host under test on the
// run's workspace and store, with command.run approved and every
// containment backend forbidden, so that the PIDs its commands write are
// the harness's own; it is shut down when the spec ends. The calls of one
// check share it.
func (o *Outcome) uncontainedHost() *session.Host {
	GinkgoHelper()
	if o.uncontained != nil {
		return o.uncontained
	}
	t := o.TestContext.Host()
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	h, err := session.StartHost(ctx, session.HostConfig{Argv: t.Argv, Workspace: o.Workspace, StoreDir: o.Store,
		PassEnv: t.Env, Approvals: map[string]string{"command.run": "allow"}, ForbidContainment: true})
	Expect(err).NotTo(HaveOccurred(), "%s: a fresh host process on the run's workspace does not start", o.File)
	DeferCleanup(func() { _ = h.Close() })
	o.uncontained = h
	return h
}

// pidsCommand is a POSIX command that writes its interpreter's PID and
// that of a background child to the workspace file pids, then becomes a
// sleep of secs seconds (exec, so the listed PID is the sleep's); the
// child, its output sent elsewhere, sleeps as long.
func pidsCommand(pids string, secs int) string {
	return fmt.Sprintf("echo $$ > %[1]s; sleep %[2]d >/dev/null 2>&1 & echo $! >> %[1]s; exec sleep %[2]d", pids, secs)
}

// executeTimed runs one call of the tool model on h and returns its answer, how
// long it took, and the processes listed in the workspace file pids ("" for
// none) still alive within answerGrace of the answer (looked for at once,
// while the host still runs).
func (o *Outcome) executeTimed(h *session.Host, model, callID string, args map[string]any, callTimeoutMs int, pids string) (port.ToolResult, time.Duration, []int, error) {
	GinkgoHelper()
	raw, err := json.Marshal(args)
	Expect(err).NotTo(HaveOccurred(), "the harness cannot encode the %s arguments", model)
	ctx, cancel := context.WithTimeout(o.Ctx(), 30*time.Second)
	defer cancel()
	start := time.Now()
	r, err := h.Client().Execute(ctx, wire.ExecuteParams{CallID: callID, ModelName: model, Arguments: raw,
		IdempotencyKey: callID, TimeoutMs: callTimeoutMs, Context: wire.RunContext{RunID: callID, TaskID: callID, Mode: "auto"}})
	took := time.Since(start)
	var live []int
	if pids != "" {
		if listed := readPIDs(filepath.Join(o.Workspace, pids)); len(listed) > 0 {
			live = liveAfter(o.Workspace, listed)
		}
	}
	return r, took, live, err
}

// CallDeadlineHonored calls run_command on a fresh host with no timeoutMs
// argument (so the command's own bound is the 120 s default) under a call
// deadline of 1 s (tool/execute timeoutMs): the deadline must end the
// command and its process group, and the host must answer soon after it
// (catches ignore-call-deadline). hosts/wire/PROTOCOL.md: "the host's
// absolute deadline is now + timeoutMs"; command.run.md: "whichever comes
// first kills the process group". The answer's form is the host's: a
// timed-out result or a DEADLINE_EXCEEDED failure.
func (o *Outcome) CallDeadlineHonored() {
	GinkgoHelper()
	h := o.uncontainedHost()
	const deadlineMs, pids = 1000, "deadline-pids.txt"
	r, took, live, err := o.executeTimed(h, "run_command", "call-deadline", map[string]any{"command": pidsCommand(pids, 8)}, deadlineMs, pids)
	Expect(err).NotTo(HaveOccurred(), "%s: run_command under a call deadline of %d ms failed on the wire instead of answering", o.File, deadlineMs)
	Expect(took).To(BeNumerically("<", deadlineMs*time.Millisecond+1500*time.Millisecond),
		"%s: run_command (sleep 8, no timeoutMs argument) under a call deadline (tool/execute timeoutMs) of %d ms was answered after %s; the call's deadline must end the command, not only its own timeoutMs", o.File, deadlineMs, took.Round(100*time.Millisecond))
	Expect(len(live)).To(BeZero(), "%s: %d process(es) of the command were alive %s after the host answered the call whose deadline passed (the harness killed them); the deadline must end the command's whole process group", o.File, len(live), answerGrace)
	if r.OK {
		var c map[string]any
		Expect(json.Unmarshal([]byte(r.Content), &c)).To(Succeed(), "%s: the host's result for call call-deadline has content that is not a JSON object: %.200q", o.File, r.Content)
		Expect(c["timedOut"]).To(Equal(true), "%s: a command ended by its call's deadline must say timedOut: true; the host answered %v", o.File, c["timedOut"])
	} else {
		Expect(r.Error).NotTo(BeNil(), "%s: the failed call-deadline result carries no error", o.File)
		Expect(r.Error.Code).To(Equal("DEADLINE_EXCEEDED"), "%s: a call ended by its deadline fails DEADLINE_EXCEEDED if not a timed-out result; the host answered %s", o.File, r.Error.Code)
	}
}
