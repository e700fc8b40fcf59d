package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
)

var _ = Describe("a host that fails initialize", func() {
	// exitsAtOnce is a host that exits 3 before answering anything.
	exitsAtOnce := []string{"/bin/sh", "-c", "echo no configuration >&2; exit 3"}
	dirs := func() (string, string) {
		d := GinkgoT().TempDir()
		ws, st := filepath.Join(d, "ws"), filepath.Join(d, "st")
		Expect(os.Mkdir(ws, 0o755)).To(Succeed())
		Expect(os.Mkdir(st, 0o755)).To(Succeed())
		return ws, st
	}

	It("twice in a row is not started again, and the watch says why once", func() {
		var told []error
		w := NewInitWatch(func(err error) { told = append(told, err) })
		ctx := WithInitWatch(context.Background(), w)
		ws, st := dirs()
		cfg := HostConfig{Argv: exitsAtOnce, Workspace: ws, StoreDir: st}
		_, err := StartHost(ctx, cfg)
		Expect(err).To(MatchError(ContainSubstring("exit status 3")))
		Expect(w.Err()).NotTo(HaveOccurred(), "one failure is not a dead host")
		_, err = StartHost(ctx, cfg)
		Expect(err).To(MatchError(ContainSubstring("exit status 3")))
		var dead *DeadHostError
		Expect(errors.As(w.Err(), &dead)).To(BeTrue())
		Expect(dead.Error()).To(HavePrefix("the host failed initialize twice in a row: "))
		Expect(dead.Error()).To(ContainSubstring("exit status 3"))
		Expect(told).To(HaveLen(1))
		Expect(told[0]).To(BeIdenticalTo(error(dead)))

		// A third start fails with the watch's error without starting the
		// host: a command that cannot even be found is not looked up.
		cfg.Argv = []string{filepath.Join(ws, "no-such-host")}
		_, err = StartHost(ctx, cfg)
		Expect(err).To(BeIdenticalTo(error(dead)))
		Expect(told).To(HaveLen(1))
	})

	It("by never answering it, twice in a row, is not started again", func() {
		w := NewInitWatch(nil)
		ctx := WithInitWatch(context.Background(), w)
		ws, st := dirs()
		// A host that reads its input and never answers anything; it
		// exits when asked to shut down, so that closing it is quick.
		never := `while read -r line; do case $line in *'"shutdown"'*) exit 0;; esac; done`
		cfg := HostConfig{Argv: []string{"/bin/sh", "-c", never}, Workspace: ws, StoreDir: st, CallTimeout: 200 * time.Millisecond}
		for range DeadAfter {
			_, err := StartHost(ctx, cfg)
			Expect(err).To(MatchError(ContainSubstring(`no answer to "initialize" (request 1) within 200ms`)))
		}
		Expect(w.Err()).To(MatchError(HavePrefix(`the host failed initialize twice in a row: host broke the protocol answering "initialize": no answer to "initialize"`)))
		_, err := StartHost(ctx, cfg)
		Expect(err).To(BeIdenticalTo(w.Err()))
	})

	It("is counted in a row only: an answer in between resets the count", func() {
		w := NewInitWatch(nil)
		silent := &hostproc.NoAnswerError{}
		w.observe(false, silent)
		w.observe(true, nil)
		w.observe(false, silent)
		Expect(w.Err()).NotTo(HaveOccurred())
		w.observe(false, silent)
		Expect(w.Err()).To(HaveOccurred())
	})

	It("is not counted when the caller's context ended it", func() {
		w := NewInitWatch(nil)
		ctx, cancel := context.WithCancel(WithInitWatch(context.Background(), w))
		cancel()
		ws, st := dirs()
		for range DeadAfter {
			_, err := StartHost(ctx, HostConfig{Argv: exitsAtOnce, Workspace: ws, StoreDir: st})
			Expect(err).To(HaveOccurred())
		}
		Expect(w.Err()).NotTo(HaveOccurred())
	})
})

var _ = Describe("the calls a run's deadline left unanswered", func() {
	It("are named, and no other call given up on is", func() {
		deadline := &run.Error{Code: run.CodeDeadlineExceeded, Message: "AI Coder run deadline exceeded."}
		got := hungAtDeadline([]hostproc.GaveUpCall{
			{Method: "tool/execute", ID: 7, CallID: "c1", Tool: "run_command", Outstanding: 2500 * time.Millisecond, Cause: deadline},
			{Method: "tool/execute", ID: 8, CallID: "c2", Tool: "read_file", Outstanding: time.Second, Cause: &run.Error{Code: "CANCELED", Message: "stop"}},
			{Method: "store/put", ID: 9, Outstanding: time.Second, Cause: context.Canceled},
			{Method: "trace/flush", ID: 10, Outstanding: 40 * time.Millisecond, Cause: deadline},
		})
		Expect(got).To(Equal([]string{
			`the run's deadline passed while the host had not answered "tool/execute" (request 7, callId "c1", model name "run_command"), outstanding for 2s`,
			`the run's deadline passed while the host had not answered "trace/flush" (request 10), outstanding for under 1s`,
		}))
	})
})
