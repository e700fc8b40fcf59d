package matrix

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = describeItem(5, func(c *TestContext) {
	c.scenarios(map[string]check{
		// The harness cancels the running call: the result says canceled,
		// and nothing of the command outlives it (catches
		// ignore-cancellation, leave-process-group).
		"canceled-command.json": func(o *outcome) {
			c := o.contentOf("05-canceled-command-run")
			Expect(c["cancelled"]).To(Equal(true), "%s: the call canceled 500 ms after dispatch must answer cancelled: true; it answered %v", o.File, c["cancelled"])
			Expect(c["timedOut"]).To(Equal(false), "%s: the call was canceled long before its 3 s timeout, yet the host answered timedOut: true", o.File)
			o.commandGone("pids.txt", "late.txt")
		},
		// The run is canceled at its next model request, after a command
		// that left a background child: the run ends canceled, and the
		// child went with its command (catches leave-process-group).
		"canceled-model.json": func(o *outcome) {
			Expect(o.Status).To(Equal("canceled"), "%s: a run canceled during its model request must end canceled", o.File)
			o.commandGone("pids.txt", "late.txt")
		},
	})
	canceledDuringCommand(c)
})

var _ = describeItem(6, func(c *TestContext) {
	c.scenarios(map[string]check{
		// A non-zero exit is an ordinary structured result with that code
		// and both streams apart (catches mask-nonzero-exit,
		// merge-command-streams).
		"nonzero-exit.json": func(o *outcome) {
			r := o.answer("06-nonzero-exit-run")
			Expect(r.OK).To(BeTrue(), "%s: a command that ran and exited 3 is a structured result (ok: true), not a tool failure", o.File)
			c := o.contentOf("06-nonzero-exit-run")
			Expect(c["exitCode"]).To(BeEquivalentTo(3), "%s: the command exited 3; the host answered exitCode %v", o.File, c["exitCode"])
			Expect(c["stdout"]).To(Equal("checked 2 files\n"), "%s: stdout must hold exactly what the command wrote to stdout", o.File)
			Expect(c["stderr"]).To(Equal("lint: 1 problem\n"), "%s: stderr must hold exactly what the command wrote to stderr", o.File)
			Expect(c["truncated"]).To(Equal(false), "%s: 32 bytes of output are not truncated", o.File)
		},
		// A huge stdout is bounded and spilled whole; the small stderr
		// beside it is intact (catches unbounded-output,
		// merge-command-streams, drop-spill, truncate-spill).
		"huge-stdout.json": func(o *outcome) {
			full := seqOutput(200000)
			c := o.contentOf("06-huge-stdout-run")
			o.bounded(c, "stdout", full)
			Expect(c["stderr"]).To(Equal("generator: done\n"), "%s: the small stderr must stay intact while stdout is truncated", o.File)
			Expect(c["exitCode"]).To(BeEquivalentTo(4), "%s: the command exited 4; the host answered exitCode %v", o.File, c["exitCode"])
			o.spilled("06-huge-stdout-run", "stdout", full)
		},
		// The same with the streams swapped: bounds are per stream.
		"huge-stderr.json": func(o *outcome) {
			full := seqOutput(200000)
			c := o.contentOf("06-huge-stderr-run")
			o.bounded(c, "stderr", full)
			Expect(c["stdout"]).To(Equal("build: ok\n"), "%s: the small stdout must stay intact while stderr is truncated", o.File)
			o.spilled("06-huge-stderr-run", "stderr", full)
		},
	})
})

// bounded asserts that the stream of a command output is truncated: shorter
// than the full output the command wrote, flagged truncated, and a part of
// that output rather than something else.
func (o *outcome) bounded(c map[string]any, stream string, full []byte) {
	GinkgoHelper()
	Expect(c["truncated"]).To(Equal(true), "%s: %d bytes on %s must be truncated to the host's bound and flagged truncated: true", o.File, len(full), stream)
	s, _ := c[stream].(string)
	Expect(len(s)).To(BeNumerically("<", len(full)), "%s: the host returned all %d bytes of %s; each stream must be bounded", o.File, len(full), stream)
	Expect(strings.Contains(string(full), s)).To(BeTrue(), "%s: the retained %s is not a part of what the command wrote", o.File, stream)
}

var _ = describeItem(52, func(c *TestContext) {
	c.scenarios(map[string]check{
		"probe-environment.json": func(o *outcome) {
			env := publishedEnvironment(o.TestContext, o.File)
			pub := env.Command
			Expect(pub.CommandMode).To(Equal("shell_string"), "%s: the host publishes commandMode %q; run_command takes a shell string", o.File, pub.CommandMode)
			Expect(pub.Stdin).To(Equal("closed"), "%s: the host publishes stdin %q; commands run with stdin closed", o.File, pub.Stdin)
			Expect(pub.TTY).To(BeFalse(), "%s: the host publishes tty: true; commands run with no terminal", o.File)
			Expect(pub.Interactive).To(BeFalse(), "%s: the host publishes interactive: true; commands are not interactive", o.File)
			o.spawnedAsPublished("52-probe-interpreter", env)
			// stdin is closed: cat ends at once with EOF, and it is no
			// terminal (catches stdin-open, terminal-stdin).
			c := o.contentOf("52-probe-stdin")
			Expect(c["timedOut"]).To(Equal(false), "%s: `cat` waited on stdin until the call timed out; a host must give commands a closed stdin", o.File)
			Expect(c["stdout"]).To(Equal("cat=0\nstdin=notty\n"), "%s: `cat` must end at once with EOF on a stdin that is no terminal", o.File)
			// No terminal on stdout or stderr either; tty(1) says so.
			c = o.contentOf("52-probe-tty")
			Expect(c["stdout"]).To(Equal("stdout=notty\nstderr=notty\nnot a tty\ntty=1\n"), "%s: a command's stdout and stderr must be no terminal and tty(1) must say \"not a tty\"", o.File)
		},
	})
})
