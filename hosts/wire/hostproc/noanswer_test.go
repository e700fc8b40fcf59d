//go:build linux

package hostproc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"syscall"
	"time"

	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A call the host never answers says what the harness knew when it gave
// up: whether the request reached the host's input, what the harness read
// from the host since and when, whether it was reading at all, the host
// process's state and the end of its standard error.
var _ = Describe("a call the host never answers", func() {
	It("says the request was written, nothing came back, and the host sleeps alive", func() {
		// The reference host's initialize waits for its containment probe.
		z := startZoo("reference-hanging", hostproc.StartOptions{CallTimeout: 30 * time.Second})
		_, err := z.c.Initialize(context.Background(), hosttest.InitializeParams(GinkgoT().TempDir(), GinkgoT().TempDir()))
		Expect(err).NotTo(HaveOccurred())
		_, err = z.c.ToolSet(context.Background())
		Expect(err).NotTo(HaveOccurred())
		p := executeParams("w1", "list_files")
		p.TimeoutMs = 100
		_, err = z.c.Execute(context.Background(), p)
		Expect(hostproc.Unanswered(err)).To(BeTrue(), "%v", err)
		Expect(err).To(MatchError(And(
			ContainSubstring(`no answer to "tool/execute" (request 3, callId "w1", model name "list_files") within 1.1s; `),
			ContainSubstring("the request was written to the host's input under 1s after the call began"),
			ContainSubstring("the harness read no line from the host since"),
			MatchRegexp(`the last line it read came [1-9]s ago`),
			// Waiting for its input, a Go host sleeps; on a busy machine
			// its runtime (a collection, a timer, a write) may be running
			// or in the kernel just then: alive, not stopped.
			MatchRegexp(`the host process is alive, [a-z ]+ \([SRD]\)`),
			ContainSubstring(`its stderr ends: "zoo: the reference host, hanging every tool/execute"`),
		)))
		Expect(err.Error()).NotTo(ContainSubstring("not read the host's output"))
	})

	It("says the host process is stopped", func() {
		z := startZoo("hang", hostproc.StartOptions{CallTimeout: time.Second})
		Expect(initialize(z)).To(Succeed())
		Expect(syscall.Kill(z.pid, syscall.SIGSTOP)).To(Succeed())
		DeferCleanup(syscall.Kill, z.pid, syscall.SIGCONT)
		_, err := z.c.TraceFlush(context.Background())
		Expect(hostproc.Unanswered(err)).To(BeTrue(), "%v", err)
		Expect(err).To(MatchError(And(
			ContainSubstring("the request was written to the host's input under 1s after the call began"),
			ContainSubstring("the harness read no line from the host since"),
			ContainSubstring("the host process is alive, stopped (T)"),
		)))
	})

	It("says the request was never written while the host does not read its input", func() {
		// The write stall is longer than the call's bound, so the call
		// times out before the connection is declared broken.
		z := startZoo("not-reading", hostproc.StartOptions{CallTimeout: 2 * time.Second, WriteStall: 20 * time.Second})
		Expect(initialize(z)).To(Succeed())
		// 1 MiB fills the pipe: its write blocks.
		big := json.RawMessage(`{"blob":"` + strings.Repeat("x", 1<<20) + `"}`)
		_, err := z.c.StorePut(context.Background(), wire.StorePutParams{RunID: "r", Kind: "k", Document: big})
		Expect(hostproc.Unanswered(err)).To(BeTrue(), "%v", err)
		Expect(err).To(MatchError(And(
			ContainSubstring(`no answer to "store/put" (request 2) within 2s`),
			MatchRegexp(`the request was never wholly written to the host's input: its write has been blocked for ([1-9]s|under 1s) \(the host does not read its input\)`),
			ContainSubstring("the harness read no line from the host since the call began"),
		)))
		time.Sleep(time.Second)
		_, err = z.c.TraceFlush(context.Background())
		Expect(err).To(MatchError(And(
			ContainSubstring(`no answer to "trace/flush" (request 3) within 2s`),
			MatchRegexp(`the request was never written to the host's input: the harness's write of request 2 has been blocked for [1-9]s \(the host does not read its input\)`),
		)))
	})

	It("says the harness stopped reading the host's output and what waits in the pipe", func() {
		release := make(chan struct{})
		held := false
		onRecv := func(line []byte) {
			if !held && bytes.Contains(line, []byte("durableEvents")) {
				held = true
				<-release // the harness's reader is stuck on this answer
			}
		}
		z := startZoo("plain", hostproc.StartOptions{CallTimeout: time.Second, OnRecv: onRecv})
		DeferCleanup(func() { close(release) }) // before the client closes
		Expect(initialize(z)).To(Succeed())
		_, err := z.c.TraceFlush(context.Background())
		Expect(err).To(MatchError(And(
			ContainSubstring(`no answer to "trace/flush" (request 2) within 1s`),
			ContainSubstring("the harness read 1 line from the host since"),
			MatchRegexp(`the harness has not read the host's output for ([1-9]s|under 1s): it is still handling the last line`),
		)))
		_, err = z.c.TraceFlush(context.Background())
		Expect(err).To(MatchError(And(
			ContainSubstring(`no answer to "trace/flush" (request 3) within 1s`),
			ContainSubstring("the harness read no line from the host since"),
			MatchRegexp(`\d+ bytes of its output wait unread in the pipe`),
			ContainSubstring("the harness has not read the host's output for"),
		)))
	})

	It("says the same when the caller's deadline passes first", func() {
		z := startZoo("hang", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := z.c.TraceFlush(ctx)
		Expect(err).To(MatchError(context.DeadlineExceeded))
		Expect(hostproc.Unanswered(err)).To(BeFalse(), "the caller gave up before the call's own bound")
		Expect(err).To(MatchError(And(
			HavePrefix(`context deadline exceeded: no answer to "trace/flush" (request 2), outstanding for under 1s; `),
			ContainSubstring("the request was written to the host's input under 1s after the call began"),
			ContainSubstring("the harness read no line from the host since"),
			MatchRegexp(`the host process is alive, [a-z ]+ \([A-Z]\)`),
		)))
		Expect(z.c.GaveUp()).To(HaveLen(1))
	})
})
