//go:build linux

package hostproc_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/internal/proc"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A zoo case starts the test binary as one hostile host (zoo_host_test.go)
// with short timeouts, and every case checks, after Close, that no process
// of the host's tree is left: none carries the client's token and the host
// PID is gone.
type zoo struct {
	c     *hostproc.Client
	pid   int
	start time.Time
}

func startZoo(mode string, opts hostproc.StartOptions) *zoo {
	return startZooArgs(mode, nil, opts)
}

// startZooArgs is startZoo with args after the test binary on the host's
// command line.
func startZooArgs(mode string, args []string, opts hostproc.StartOptions) *zoo {
	exe, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	os.Setenv(zooEnv, mode)
	DeferCleanup(os.Unsetenv, zooEnv)
	// A race-enabled host sleeps 1 s on exit unless told otherwise.
	os.Setenv("GORACE", "atexit_sleep_ms=0")
	DeferCleanup(os.Unsetenv, "GORACE")
	opts.PassEnv = append(opts.PassEnv, zooEnv, "GORACE")
	if opts.CallTimeout == 0 {
		opts.CallTimeout = 2 * time.Second
	}
	if opts.WriteStall == 0 {
		opts.WriteStall = time.Second
	}
	opts.ExecuteMargin = time.Second
	c, err := hostproc.Start(append([]string{exe}, args...), opts)
	Expect(err).NotTo(HaveOccurred())
	z := &zoo{c: c, pid: c.PID(), start: time.Now()}
	DeferCleanup(func() {
		_ = c.Close(time.Second)
		z.expectNoLeftovers()
	})
	return z
}

func (z *zoo) expectNoLeftovers() {
	GinkgoHelper()
	Eventually(func() []int { return hostproc.TreeOf(z.c.Token()) }).WithTimeout(2*time.Second).Should(BeEmpty(), "processes of the host's tree are left")
	Expect(proc.Alive(z.pid)).To(BeFalse(), "the host process %d is left", z.pid)
}

// within checks that the case has taken no longer than d so far.
func (z *zoo) within(d time.Duration) {
	GinkgoHelper()
	Expect(time.Since(z.start)).To(BeNumerically("<", d), "the case took too long")
}

func initialize(z *zoo) error {
	_, err := z.c.Initialize(context.Background(), wire.InitializeParams{ProtocolVersion: "1"})
	return err
}

func approveAll(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
	return wire.ApprovalDecision{Approved: true, Scope: "once"}, nil
}

var _ = Describe("a hostile host", func() {
	It("that exits before initialize fails it with its exit status and stderr", func() {
		z := startZoo("exit-before-initialize", hostproc.StartOptions{})
		err := initialize(z)
		Expect(err).To(MatchError(And(ContainSubstring("exited without answering"), ContainSubstring("exit status 3"), ContainSubstring("cannot open configuration"))))
		z.within(3 * time.Second)
	})

	It("that crashes mid-call fails that call", func() {
		z := startZoo("crash-mid-call", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		_, err := z.c.Execute(context.Background(), executeParams("w1", "write_file"))
		Expect(err).To(MatchError(And(ContainSubstring(`answering "tool/execute"`), ContainSubstring("exit status 2"), ContainSubstring("nil map"))))
		z.within(3 * time.Second)
	})

	It("that hangs is named by the call that hung", func() {
		z := startZoo("hang", hostproc.StartOptions{CallTimeout: 500 * time.Millisecond})
		Expect(initialize(z)).To(Succeed())
		_, err := z.c.TraceFlush(context.Background())
		Expect(err).To(MatchError(ContainSubstring(`no answer to "trace/flush" (request 2) within 500ms`)))
		Expect(hostproc.Unanswered(err)).To(BeTrue())
		_, err = z.c.Execute(context.Background(), executeParams("w1", "write_file"))
		Expect(err).To(MatchError(ContainSubstring(`no answer to "tool/execute" (request 3, callId "w1", model name "write_file") within 2s`)))
		Expect(hostproc.Unanswered(err)).To(BeTrue())
		z.within(4 * time.Second)
	})

	It("that hangs until its caller gives up has the call recorded with the caller's reason", func() {
		z := startZoo("hang", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		deadline := errors.New("the run's deadline passed")
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(100*time.Millisecond, func() { cancel(deadline) })
		_, err := z.c.Execute(ctx, executeParams("w1", "run_command"))
		Expect(err).To(MatchError(context.Canceled))
		Expect(hostproc.Unanswered(err)).To(BeFalse(), "the harness gave up: the host was not asked to answer yet")
		gave := z.c.GaveUp()
		Expect(gave).To(HaveLen(1))
		g := gave[0]
		Expect(g.Method).To(Equal("tool/execute"))
		Expect(g.ID).To(BeEquivalentTo(2))
		Expect(g.CallID).To(Equal("w1"))
		Expect(g.Tool).To(Equal("run_command"))
		Expect(g.Outstanding).To(BeNumerically(">", 0))
		Expect(g.Cause).To(MatchError(deadline))
		Expect(g.String()).To(Equal(`"tool/execute" (request 2, callId "w1", model name "run_command"), outstanding for under 1s`))
	})

	It("that ignores $/cancelRequest does not hold up the cancelled call", func() {
		z := startZoo("ignore-cancel", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		_, err := z.c.Execute(ctx, executeParams("w1", "write_file"))
		Expect(err).To(MatchError(context.DeadlineExceeded))
		z.within(time.Second)
		_, err = z.c.TraceFlush(context.Background())
		Expect(err).NotTo(HaveOccurred(), "the connection survives a cancelled call")
	})

	It("that writes a garbage line breaks the protocol, quoted", func() {
		z := startZoo("garbage", hostproc.StartOptions{})
		Expect(initialize(z)).To(MatchError(And(ContainSubstring("not a JSON object"), ContainSubstring("hello, this is not JSON"))))
		z.within(2 * time.Second)
	})

	It("that writes a partial line and ends its output breaks the protocol", func() {
		z := startZoo("partial-eof", hostproc.StartOptions{})
		Expect(initialize(z)).To(MatchError(And(ContainSubstring("not a JSON object"), ContainSubstring(`\"res`))))
		z.within(2 * time.Second)
	})

	It("that writes a line over the limit breaks the protocol without reading it all", func() {
		z := startZoo("huge-line", hostproc.StartOptions{MaxMessage: 1 << 20})
		Expect(initialize(z)).To(MatchError(ContainSubstring("message longer than the limit of 1,048,576 bytes")))
		z.within(2 * time.Second)
	})

	It("that answers with the wrong id breaks the protocol", func() {
		z := startZoo("wrong-id", hostproc.StartOptions{})
		Expect(initialize(z)).To(MatchError(ContainSubstring("response to unknown request id 99")))
		z.within(3 * time.Second)
	})

	It("that answers twice breaks the protocol at the next call", func() {
		z := startZoo("duplicate-id", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		_, err := z.c.TraceFlush(context.Background())
		Expect(err).To(MatchError(ContainSubstring("response to unknown request id 1")))
		z.within(3 * time.Second)
	})

	It("that sends an unsolicited response breaks the protocol", func() {
		z := startZoo("unsolicited-response", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		_, err := z.c.TraceFlush(context.Background())
		Expect(err).To(MatchError(ContainSubstring("response to unknown request id 7")))
		z.within(3 * time.Second)
	})

	It("that asks for approval while no tool/execute is in flight is refused and flagged", func() {
		asked := make(chan struct{}, 1)
		z := startZoo("unsolicited-approval", hostproc.StartOptions{Approver: func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			asked <- struct{}{}
			return wire.ApprovalDecision{Approved: true, Scope: "once"}, nil
		}})
		Expect(initialize(z)).To(Succeed())
		_, err := z.c.TraceFlush(context.Background())
		Expect(err).To(MatchError(ContainSubstring(`sent "approval/request" while no "tool/execute" was in flight`)))
		Expect(asked).NotTo(Receive(), "the approval was answered as normal")
		Expect(z.c.Incidents()).To(ContainElement(ContainSubstring("approval/request")))
		z.within(3 * time.Second)
	})

	It("that writes after answering shutdown is recorded", func() {
		z := startZoo("output-after-shutdown", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		Expect(z.c.Close(time.Second)).To(Succeed())
		Expect(z.c.Incidents()).To(ContainElement(ContainSubstring("wrote after answering shutdown")))
		z.within(3 * time.Second)
	})

	It("that ignores shutdown is killed, and Close says so", func() {
		z := startZoo("ignore-shutdown", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		err := z.c.Close(500 * time.Millisecond)
		var pe *wire.ProtocolError
		Expect(errors.As(err, &pe)).To(BeTrue(), "%v", err)
		Expect(err).To(MatchError(ContainSubstring("the host did not exit within 500ms of shutdown; killed")))
		Expect(z.c.Incidents()).To(ContainElement("the host did not exit within 500ms of shutdown; killed"))
		z.within(2 * time.Second)
	})

	It("that floods its stderr costs the harness only the kept tail", func() {
		before := heap()
		z := startZoo("stderr-flood", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		Eventually(z.c.Stderr).Should(HaveSuffix("zoo: last line"))
		Expect(len(z.c.Stderr())).To(BeNumerically("<=", 8<<10))
		Expect(heap() - before).To(BeNumerically("<", 16<<20))
		z.within(10 * time.Second)
	})

	It("that leaves a setsid grandchild holding its stderr does not keep the harness waiting", func() {
		z := startZoo("setsid-grandchild", hostproc.StartOptions{})
		Expect(initialize(z)).To(MatchError(And(ContainSubstring("exited without answering"), ContainSubstring("leaving a setsid child"))))
		Expect(z.c.Close(time.Second)).To(Succeed())
		z.within(4 * time.Second)
		Expect(z.c.Incidents()).To(ContainElement(ContainSubstring("killed 1 process(es)")))
	})

	It("that leaves a grandchild in its group after a clean exit has it killed", func() {
		z := startZoo("group-grandchild", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		Expect(z.c.Close(time.Second)).To(Succeed())
		Expect(z.c.Incidents()).To(ContainElement(ContainSubstring("killed 1 process(es)")))
		z.within(3 * time.Second)
	})

	It("that runs a child in its own group with a scrubbed environment has it killed", func() {
		z := startZoo("hidden-grandchild", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		var child int
		Eventually(func() (int, error) {
			_, err := fmt.Sscanf(z.c.Stderr(), "child %d", &child)
			return child, err
		}).Should(BeNumerically(">", 0))
		Expect(z.c.Close(time.Second)).To(Succeed())
		Eventually(func() bool { return proc.Alive(child) }).Should(BeFalse(), "child %d survived", child)
		z.within(3 * time.Second)
	})

	It("that floods requests and stops reading is cut off, bounded in time and memory", func() {
		before := heap()
		z := startZoo("flood", hostproc.StartOptions{Approver: approveAll})
		Expect(initialize(z)).To(Succeed())
		_, err := z.c.Execute(context.Background(), executeParams("w1", "write_file"))
		Expect(err).To(MatchError(MatchRegexp(`stopped reading its input|at most \d+`)))
		z.within(5 * time.Second)
		Expect(heap() - before).To(BeNumerically("<", 64<<20))
		Expect(z.c.Close(time.Second)).To(Succeed())
		z.within(6 * time.Second)
	})

	It("that sends more requests at once than allowed breaks the protocol naming the bound", func() {
		release := make(chan struct{})
		DeferCleanup(func() { close(release) })
		z := startZoo("in-flight", hostproc.StartOptions{Approver: func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return wire.ApprovalDecision{}, ctx.Err()
		}})
		Expect(initialize(z)).To(Succeed())
		_, err := z.c.Execute(context.Background(), executeParams("w1", "write_file"))
		Expect(err).To(MatchError(ContainSubstring("at most 8 may be in flight")))
		z.within(3 * time.Second)
	})

	It("that stops reading its input is declared so within the write bound", func() {
		z := startZoo("not-reading", hostproc.StartOptions{CallTimeout: 10 * time.Second, WriteStall: 500 * time.Millisecond})
		Expect(initialize(z)).To(Succeed())
		doc := []byte(`{"blob":"` + strings.Repeat("0", 1<<20) + `"}`)
		var err error
		for i := 0; i < 4 && err == nil; i++ {
			_, err = z.c.StorePut(context.Background(), wire.StorePutParams{RunID: "r", Kind: wire.KindCheckpoint, Document: doc})
		}
		Expect(err).To(MatchError(ContainSubstring("the host stopped reading its input")))
		z.within(4 * time.Second)
	})

	It("that exits 0 early fails the next call", func() {
		z := startZoo("early-exit-0", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		_, err := z.c.TraceFlush(context.Background())
		Expect(err).To(MatchError(ContainSubstring("the host exited without answering")))
		z.within(3 * time.Second)
	})

	It("that closes its output but keeps running fails the next call and is killed", func() {
		z := startZoo("close-stdout", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		_, err := z.c.TraceFlush(context.Background())
		Expect(err).To(MatchError(ContainSubstring("closed its output")))
		Expect(z.c.Close(500 * time.Millisecond)).To(Succeed())
		Expect(z.c.Incidents()).To(ContainElement(ContainSubstring("killed the host")))
		z.within(5 * time.Second)
	})

	It("that prints secrets to stderr has them redacted in errors", func() {
		z := startZoo("secret-stderr", hostproc.StartOptions{})
		err := initialize(z)
		Expect(err).To(MatchError(ContainSubstring("[REDACTED:github-token]")))
		Expect(err.Error()).NotTo(ContainSubstring("ghp_"))
		Expect(err.Error()).NotTo(ContainSubstring("hunter2"))
		Expect(z.c.Stderr()).NotTo(ContainSubstring("ghp_"))
		z.within(3 * time.Second)
	})

	It("sees only the allowed environment, with a home of its own", func() {
		os.Setenv("ZOO_SECRET", "s3cr3t-value")
		os.Setenv("ZOO_PASSED", "yes")
		DeferCleanup(os.Unsetenv, "ZOO_SECRET")
		DeferCleanup(os.Unsetenv, "ZOO_PASSED")
		home := GinkgoT().TempDir()
		z := startZoo("env", hostproc.StartOptions{PassEnv: []string{"ZOO_PASSED"}, Home: home})
		err := initialize(z)
		Expect(err).To(MatchError(ContainSubstring(`secret="" passed="yes" home="` + home + `" tmpdir="` + home + `/tmp"`)))
		z.within(3 * time.Second)
	})

	It("never gets the harness's cache directory, even by name; a built-in host does", func() {
		cache := GinkgoT().TempDir()
		os.Setenv(hostproc.CacheEnv, cache)
		DeferCleanup(os.Unsetenv, hostproc.CacheEnv)
		z := startZoo("env", hostproc.StartOptions{PassEnv: []string{hostproc.CacheEnv, "CONFORM_*"}})
		Expect(initialize(z)).To(MatchError(ContainSubstring(`cache=""`)))
		builtin := startZooArgs("env", append(slices.Clone(hostproc.ServeArgs), "reference"), hostproc.StartOptions{})
		Expect(initialize(builtin)).To(MatchError(ContainSubstring(`cache="` + cache + `"`)))
	})

	It("that is still running when KillAll is called is killed", func() {
		z := startZoo("hang", hostproc.StartOptions{})
		Expect(initialize(z)).To(Succeed())
		hostproc.KillAll()
		Eventually(func() bool { return proc.Alive(z.pid) }).WithTimeout(time.Second).Should(BeFalse())
		_, err := z.c.TraceFlush(context.Background())
		Expect(err).To(HaveOccurred())
		z.within(3 * time.Second)
	})
})

func heap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
