package items

import (
	"bytes"
	"fmt"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

var _ = matrix.DescribeItem(matrix.Item{
	ID: 5, Name: "canceled-model-command", Area: "commands", Title: "canceled model and canceled command",
	Scope: matrix.ScopeBoth, Tools: []string{"command.run", "git.exec"}, Guarantees: []string{"C8"},
	Contract: "hosts/wire/PROTOCOL.md#timeouts-and-cancellation", Guarantee: "Cancellation MUST end the run as canceled, and a canceled command MUST take its whole process group with it.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The harness cancels the running call: the result says canceled,
		// every process of the command, a child that ignores SIGTERM
		// included, is gone when the answer arrives (observed then, while
		// the session is open), and nothing outlives it (catches
		// ignore-cancellation, leave-process-group, term-without-kill).
		"canceled-command.json": kit.On("C8 L5", func(o *kit.Outcome) {
			c := o.ContentOf("05-canceled-command-run")
			Expect(c["cancelled"]).To(Equal(true), "%s: the call canceled 500 ms after dispatch must answer cancelled: true; it answered %v", o.File, c["cancelled"])
			Expect(c["timedOut"]).To(Equal(false), "%s: the call was canceled long before its 5 s timeout, yet the host answered timedOut: true", o.File)
			o.CommandGone("pids.txt", "late.txt")
		}).AtAnswer("05-canceled-command-run", kit.GroupGoneAtAnswer("05-canceled-command-run", "pids.txt")),
		// The run is canceled at its next model request, after a command
		// that left a background child: the run ends canceled, and the
		// child went with its command (catches leave-process-group).
		"canceled-model.json": kit.On("C8 L5", func(o *kit.Outcome) {
			Expect(o.Status).To(Equal("canceled"), "%s: a run canceled during its model request must end canceled", o.File)
			o.CommandGone("pids.txt", "late.txt")
		}),
	})
	kit.CanceledDuringCommand(c)
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 6, Name: "nonzero-exit-truncation", Area: "commands", Title: "non-zero command exit and output truncation",
	Scope: matrix.ScopeHost, Tools: []string{"command.run", "project.validate"}, Guarantees: []string{"C9", "C10"},
	Contract: "hosts/wire/tools/command.run.md#output", Guarantee: "A non-zero exit MUST be a structured result, and stdout and stderr MUST be bounded independently with the full output kept in a spill file.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// A non-zero exit is an ordinary structured result with that code
		// and both streams apart (catches mask-nonzero-exit,
		// nonzero-exit-as-failure, merge-command-streams).
		"nonzero-exit.json": kit.On("C9 C10 L6", func(o *kit.Outcome) {
			r := o.Answer("06-nonzero-exit-run")
			Expect(r.OK).To(BeTrue(), "%s: a command that ran and exited 3 is a structured result (ok: true), not a tool failure", o.File)
			c := o.ContentOf("06-nonzero-exit-run")
			Expect(c["exitCode"]).To(BeEquivalentTo(3), "%s: the command exited 3; the host answered exitCode %v", o.File, c["exitCode"])
			Expect(c["stdout"]).To(Equal("checked 2 files\n"), "%s: stdout must hold exactly what the command wrote to stdout", o.File)
			Expect(c["stderr"]).To(Equal("lint: 1 problem\n"), "%s: stderr must hold exactly what the command wrote to stderr", o.File)
			Expect(c["truncated"]).To(Equal(false), "%s: 32 bytes of output are not truncated", o.File)
			// A command its own signal killed has no exit status of 0
			// (catches signal-exit-zero: a `code ?? 0` default).
			c = o.ContentOf("06-signal-exit-run")
			Expect(c["stdout"]).To(Equal("started\n"), "%s: stdout must hold what the killed command wrote before it died", o.File)
			Expect(c["exitCode"]).To(BeAssignableToTypeOf(float64(0)), "%s: the killed command's exitCode must be an integer; the host answered %v", o.File, c["exitCode"])
			Expect(c["exitCode"]).NotTo(BeEquivalentTo(0), "%s: the command was killed by SIGKILL, yet the host answered exitCode 0, which says it succeeded; a command ended by a signal must report a non-zero exit code", o.File)
		}),
		// A huge stdout is bounded and spilled whole; the small stderr
		// beside it is intact (catches unbounded-output,
		// merge-command-streams, drop-spill, truncate-spill).
		"huge-stdout.json": kit.On("C9 L6", func(o *kit.Outcome) {
			full := kit.SeqOutput(200000)
			c := o.ContentOf("06-huge-stdout-run")
			o.Bounded(c, "stdout", full)
			Expect(c["stderr"]).To(Equal("generator: done\n"), "%s: the small stderr must stay intact while stdout is truncated", o.File)
			Expect(c["exitCode"]).To(BeEquivalentTo(4), "%s: the command exited 4; the host answered exitCode %v", o.File, c["exitCode"])
			o.Spilled("06-huge-stdout-run", "stdout", full)
		}),
		// Both streams huge and written in turns: each is bounded, and the
		// spill keeps each complete stream as one piece, never the two
		// interleaved as they arrived (catches merge-spill).
		"huge-both.json": kit.On("C9 L6", func(o *kit.Outcome) {
			digits := kit.SeqOutput(100000)
			letters := bytes.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return 'a' + r - '0'
				}
				return r
			}, digits)
			c := o.ContentOf("06-huge-both-run")
			o.Bounded(c, "stdout", letters)
			o.Bounded(c, "stderr", digits)
			Expect(c["exitCode"]).To(BeEquivalentTo(0), "%s: the command exited 0; the host answered exitCode %v", o.File, c["exitCode"])
			o.Spilled("06-huge-both-run", "stdout", letters)
			o.Spilled("06-huge-both-run", "stderr", digits)
		}),
		// The same with the streams swapped: bounds are per stream.
		"huge-stderr.json": kit.On("C9 L6", func(o *kit.Outcome) {
			full := kit.SeqOutput(200000)
			c := o.ContentOf("06-huge-stderr-run")
			o.Bounded(c, "stderr", full)
			Expect(c["stdout"]).To(Equal("build: ok\n"), "%s: the small stdout must stay intact while stderr is truncated", o.File)
			o.Spilled("06-huge-stderr-run", "stderr", full)
		}),
	})
	failedCheckFails(c)
})

// failedCheckFails declares item 6's check of the validation side of S000
// C10 ("not transport success masquerading as validation success"): a
// declared check whose script ran and exited non-zero is a failed check,
// never one that passed because its process started and ended (catches
// validation-passed-when-ran). The host's own process, approved, on a
// workspace of its own whose package.json declares a test script that
// exits 3.
func failedCheckFails(c *kit.TestContext) {
	c.It("a declared check whose script exits non-zero is reported failed", "C10 L6", func() {
		kit.FailRepro(c)
		kit.NeedTool(c, "project.validate")
		d := kit.StartDirect(c, map[string]string{"package.json": "{\n  \"private\": true,\n  \"scripts\": { \"test\": \"exit 3\" }\n}\n"}, nil)
		r := d.Tool("validate_project", map[string]any{"checks": []string{"test"}, "path": "."})
		Expect(r.OK).To(BeTrue(), "validate_project of a test script that ran and exited 3 is a structured result (ok: true) whose check failed, not a tool failure: %.300s", r.Content)
		Expect(r.Out["passed"]).To(Equal(false), "the test script exited 3, yet validate_project answered passed: %v", r.Out["passed"])
		results, _ := r.Out["results"].([]any)
		Expect(results).To(HaveLen(1), "validate_project was asked for one check, test; it answered results %v", r.Out["results"])
		got, _ := results[0].(map[string]any)
		Expect(got["status"]).To(Equal("failed"), "the test script ran and exited 3, so the check failed; the host answered status %v: a check's status comes from its exit code, not from its process having run", got["status"])
		if code, ok := got["exitCode"]; ok && code != nil {
			Expect(code).NotTo(BeEquivalentTo(0), "the test script exited 3, yet the host reports exitCode 0")
		}
		if r.Effects != nil {
			for _, v := range r.Effects.Validations {
				Expect(v.Status).NotTo(Equal("passed"), "the test script exited 3, yet the host attests validation %s passed", v.ID)
			}
		}
	})
}

// Item 28: required containment with no verified backend refuses before
// spawn, best-effort execution is never labelled sandboxed, and a
// verified backend runs the command contained. The premise of the first
// two is set through initialize (conform.forbidContainmentBackends), never
// assumed from the machine; the third is not applicable where the host
// reports no verified backend.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 28, Name: "required-containment", Area: "commands", Title: "required command containment refuses to spawn when unavailable or unverified",
	Scope: matrix.ScopeHost, Tools: []string{"command.run"}, Guarantees: []string{"C11", "C12", "T11"},
	Contract: "hosts/wire/tools/command.run.md#errors", Guarantee: "When containment is required and no verified backend exists, a host MUST refuse to spawn.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Catches spawn-without-containment (forbidden.txt exists, the
		// result is ok) and sandbox-label-best-effort (initialize claims
		// a verified backend although every backend is forbidden).
		// Then the same gate must refuse a declared validation script
		// (catches validate-skips-containment-gate).
		"unavailable-refuses.json": kit.On("C12 T11 L28", func(o *kit.Outcome) {
			c := o.Containment()
			Expect(c.Mode).To(Equal(wire.ContainmentRequired), "%s: initialize reports containment mode %q; the harness asked for required", o.File, c.Mode)
			kit.Unverified(o, c)
			r := o.Answer("28-unavailable-run")
			Expect(r.Error).NotTo(BeNil(), "%s: the refused command carries no error", o.File)
			Expect(r.Error.Code).To(Equal("UNAVAILABLE"), "%s: a required-containment refusal is UNAVAILABLE", o.File)
			if r.Effects != nil {
				Expect(r.Effects.Writes).To(BeEmpty(), "%s: a command refused before spawn attests writes", o.File)
				Expect(r.Effects.StateVersion).To(BeEmpty(), "%s: a command refused before spawn attests a state change", o.File)
			}
			o.ValidationGated()
		}),
		// Catches sandbox-label-best-effort: the command runs, and
		// nothing calls it sandboxed; nor are filesystem writes called
		// contained because the host validates every cwd (catches
		// cwd-as-containment). Then a cwd refusal is reported as the
		// cwd's, not as containment's (catches
		// cwd-refusal-as-containment).
		"best-effort-unlabelled.json": kit.On("C11 C12 L28", func(o *kit.Outcome) {
			c := o.Containment()
			Expect(c.Mode).To(Equal(wire.ContainmentBestEffort), "%s: initialize reports containment mode %q; the harness asked for best_effort", o.File, c.Mode)
			kit.Unverified(o, c)
			Expect(o.Answer("28-best-effort-run").OK).To(BeTrue(), "%s: best-effort execution must run the command", o.File)
			o.CwdRefusedApart()
		}),
	})

	// The verified branch runs on the same machine as the others: the
	// premise comes from the host's own initialize, not from the machine.
	c.It("verified/contained", "C11 L28", func() {
		got := c.Host().Initialized().Containment
		if got == nil || !got.Active || !got.Verified {
			kit.NotApplicable(fmt.Sprintf("the host's initialize reports no active verified containment backend (%s)", kit.DescribeContainment(got)))
		}
		c.RunScenario("28-required-containment/verified/contained.json", func(o *kit.Outcome) {
			got := o.Containment()
			Expect(got.Active && got.Verified).To(BeTrue(), "%s: initialize under required containment reports %s; the probe session reported a verified backend", o.File, kit.DescribeContainment(&got))
			Expect(got.FilesystemWrites).NotTo(Equal("uncontained"), "%s: a verified backend must contain filesystem writes", o.File)
		})
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 52, Name: "command-environment", Area: "commands", Title: "the model-visible command environment equals what the adapter spawns",
	Scope: matrix.ScopeHost, Tools: []string{"command.run"}, Guarantees: []string{"C1", "C2", "C3", "C4", "C5"},
	Contract: "hosts/wire/tools/command.run.md#choices", Guarantee: "The published command environment MUST equal the executable and argv prefix the host spawns, with closed stdin and no TTY.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"probe-environment.json": kit.On("C1 C2 C3 C4 L52", func(o *kit.Outcome) {
			env := kit.PublishedEnvironment(o.TestContext, o.File)
			pub := env.Command
			Expect(pub.CommandMode).To(Equal("shell_string"), "%s: the host publishes commandMode %q; run_command takes a shell string", o.File, pub.CommandMode)
			Expect(pub.Stdin).To(Equal("closed"), "%s: the host publishes stdin %q; commands run with stdin closed", o.File, pub.Stdin)
			Expect(pub.TTY).To(BeFalse(), "%s: the host publishes tty: true; commands run with no terminal", o.File)
			Expect(pub.Interactive).To(BeFalse(), "%s: the host publishes interactive: true; commands are not interactive", o.File)
			o.SpawnedAsPublished("52-probe-interpreter", env)
			o.DialectAsPublished("52-probe-interpreter", env)
			o.LoginShellIgnored("52-probe-interpreter", env)
			// stdin is closed: cat ends at once with EOF, and it is no
			// terminal (catches stdin-open, terminal-stdin).
			c := o.ContentOf("52-probe-stdin")
			Expect(c["timedOut"]).To(Equal(false), "%s: `cat` waited on stdin until the call timed out; a host must give commands a closed stdin", o.File)
			Expect(c["stdout"]).To(Equal("cat=0\nstdin=notty\n"), "%s: `cat` must end at once with EOF on a stdin that is no terminal", o.File)
			// No terminal on stdout or stderr either; tty(1) says so.
			c = o.ContentOf("52-probe-tty")
			Expect(c["stdout"]).To(Equal("stdout=notty\nstderr=notty\nnot a tty\ntty=1\n"), "%s: a command's stdout and stderr must be no terminal and tty(1) must say \"not a tty\"", o.File)
		}),
	})
	concreteEnvironment(c)
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 53, Name: "dialect-probes", Area: "commands", Title: "POSIX-sh and Windows-cmd dialect probes",
	Scope: matrix.ScopeHost, Tools: []string{"command.run", "git.exec"}, Guarantees: []string{"C1", "C6", "C7", "C8", "C9"},
	Contract: "hosts/wire/tools/command.run.md#choices", Guarantee: "Native dialect probes MUST cover variables, chaining, redirection, Unicode and space paths, cancellation, timeouts and output bounds.",
}, func(c *kit.TestContext) {
	kit.DialectProbes(c,
		kit.Dialect{Shell: "sh", Platforms: "Linux and macOS", File: "posix-sh.json", Sentences: "C1 C6 C7 C8 C9 L53",
			Check: func(o *kit.Outcome) {
				kit.DialectChecks("53-posix-", map[string]string{
					"variables":          "sh-ok\nor-ok\nafter; semicolon\n[default]\nenv-ok\n",
					"redirection":        "shell-ok\nto-err\n",
					"redirection-stderr": "only-err\n",
					"unicode-cwd":        "shell-ok\ndir ü\n",
				}, "small\n")(o)
				o.CallTimeoutHonored()
				o.CallDeadlineHonored()
				o.CwdStaysInside()
			}},
		kit.Dialect{Shell: "cmd", Platforms: "Windows", File: "windows-cmd.json", Sentences: "C1 C7 C8 C9 L53",
			Check: kit.DialectChecks("53-cmd-", map[string]string{
				"variables":          "[cmd value]\r\nor-ok\r\nenv-ok\r\n",
				"redirection":        "shell-ok\r\nto-err\r\n",
				"redirection-stderr": "only-err \r\n",
				"unicode-cwd":        "shell-ok\r\n",
			}, "")},
	)
})

// hostileNames are the file names of 54-git-paths that look like shell
// syntax or options; starDecoy is the file a glob pathspec "star*.txt"
// would also match.
func hostileNames() []string {
	return []string{"semi;touch INJECTED_semi.txt", "$(touch INJECTED_subst.txt).txt", "`touch INJECTED_tick.txt`.txt",
		"pipe|touch INJECTED_pipe.txt", "amp&touch INJECTED_amp.txt", `it's "quoted".txt`, "--output=x54.txt", "-n.txt",
		"with space.txt", "star*.txt"}
}

const starDecoy = "star-decoy.txt"

// Item 54: file names and arguments that look like shell syntax or options
// stay data in the git commands and the package-manager commands the host
// builds, and in the command string it hands the published interpreter.
// The oracle checks no injected command left its marker file and no
// option-like name created its file; these checks read what Git reported.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 54, Name: "shell-sensitive-data", Area: "commands", Title: "shell-sensitive commands and Git path arguments remain data",
	Scope: matrix.ScopeHost, Tools: []string{"git.exec", "command.run", "project.validate"}, Guarantees: []string{"C2", "C3"},
	Contract: "hosts/wire/tools/command.run.md#choices", Guarantee: "Host-generated commands and Git path arguments MUST stay data on every supported OS, including metacharacter-like file names.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Catches git-paths-as-options (--output=x54.txt, -n.txt become
		// options), git-through-shell (the names run as shell) and
		// glob-pathspecs (star*.txt also reports the decoy).
		"git-paths.json": kit.On("C2 C3 L54", func(o *kit.Outcome) {
			Expect(o.StatusPaths("54-git-status")).To(Equal(kit.Sorted(hostileNames())),
				"%s: git_operation status with every hostile name as a path must report exactly those files, each by its own name", o.File)
			Expect(o.StatusPaths("54-git-star")).To(Equal([]string{"star*.txt"}),
				"%s: git_operation status with the path star*.txt must report that file only, not %s: paths are literal, never globs", o.File, starDecoy)
			Expect(o.DiffPaths("54-git-diff")).To(Equal(kit.Sorted(append([]string{starDecoy}, hostileNames()...))),
				"%s: git_operation diff with every changed file as a path must show exactly those files", o.File)
		}),
		// Catches implicit-shell: the command string is parsed once, by
		// the published interpreter.
		"command-literals.json": kit.On("C2 C3 L54", nil),
		// A project directory named like shell syntax or an option is the
		// validation command's cwd, never part of its text.
		"project-paths.json": kit.On("C2 C3 L54", nil),
	})
})
