package proxy_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"time"

	"github.com/galaxy-stack/conform/internal/proc"

	"github.com/galaxy-stack/conform/hosts/proxy"
	"github.com/galaxy-stack/conform/hosts/wire"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// create is a write_file call of the reference host that creates a.txt.
var create = map[string]any{"path": "a.txt", "content": "hello", "precondition": map[string]any{"kind": "must_not_exist"}}

// createB is a write_file call that creates b.txt.
var createB = map[string]any{"path": "b.txt", "content": "again", "precondition": map[string]any{"kind": "must_not_exist"}}

// helloHash is the workspace hash of "hello".
const helloHash = "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"

var _ = Describe("fault rules against the reference host process", func() {
	It("passes everything through without rules", func() {
		s := startSession(setup{rules: `[]`})
		r, err := s.execute("write_file", create)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue(), r.Content)
		Expect(r.CanonicalToolID).To(Equal("workspace.write"))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
		Expect(s.proxy.Faults()).To(BeEmpty())
	})

	It("fail: answers the Nth matching call with an error; the host never runs it, and runs the next", func() {
		s := startSession(setup{rules: `[{"method":"tool/execute","modelName":"write_file","nth":1,"action":"fail","error":{"code":-32603,"message":"boom"}}]`})
		_, err := s.execute("write_file", create)
		Expect(rpcError(err)).To(Equal(&wire.Error{Code: -32603, Message: "boom"}))
		Consistently(func() string { return s.onDisk("a.txt") }, "200ms").Should(Equal(absent))
		r, err := s.execute("write_file", create)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue(), "the host never saw the first call, so must_not_exist still holds: %s", r.Content)
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
		Expect(s.proxy.Faults()).To(Equal([]proxy.Fault{{Seq: 1, Rule: 0, Action: "fail", Method: "tool/execute", RequestID: "3",
			ModelName: "write_file", CanonicalToolID: "workspace.write", Detail: "answered with JSON-RPC error -32603 without forwarding"}}))
	})

	It("fail: the default error is an internal error", func() {
		s := startSession(setup{rules: `[{"method":"tool/execute","modelName":"write_file","action":"fail"}]`})
		_, err := s.execute("write_file", create)
		Expect(errors.Is(err, wire.ErrInternal)).To(BeTrue(), "%v", err)
		Expect(rpcError(err).Message).To(Equal("injected fault"))
		Expect(s.onDisk("a.txt")).To(Equal(absent))
	})

	It("close: closes the transport before the host sees the call; the host ends", func() {
		s := startSession(setup{rules: `[{"method":"tool/execute","canonicalToolId":"workspace.write","action":"close"}]`})
		_, err := s.execute("write_file", create)
		protocolError(err)
		Eventually(s.proxy.Done()).Should(BeClosed())
		Eventually(s.hostExited, 5*time.Second).Should(BeTrue(), "the host's input was closed")
		Expect(s.onDisk("a.txt")).To(Equal(absent))
		Expect(s.proxy.Faults()).To(HaveExactElements(HaveField("Detail", "closed the transport without forwarding")))
		Expect(s.proxy.BrokeTransport()).To(BeTrue(), "the proxy, not the host, ended the transport")
	})

	It("delay: holds the call before the host sees it, then the host runs it", func() {
		s := startSession(setup{rules: `[{"method":"tool/execute","modelName":"write_file","action":"delay","delayMs":600}]`})
		start := time.Now()
		done := make(chan error, 1)
		go func() {
			defer GinkgoRecover()
			r, err := s.execute("write_file", create)
			if err == nil && !r.OK {
				err = fmt.Errorf("not ok: %s", r.Content)
			}
			done <- err
		}()
		Consistently(func() string { return s.onDisk("a.txt") }, 400*time.Millisecond, 20*time.Millisecond).Should(Equal(absent),
			"the host has not seen the call yet")
		Eventually(done, 5*time.Second).Should(Receive(BeNil()))
		Expect(time.Since(start)).To(BeNumerically(">=", 600*time.Millisecond))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
		Expect(s.proxy.Faults()).To(HaveExactElements(HaveField("Detail", "held the request for 600 ms")))
		Expect(s.proxy.BrokeTransport()).To(BeFalse())
	})

	It("drop_ack: the host writes the file, the client sees a transport error", func() {
		s := startSession(setup{rules: `[{"method":"tool/execute","modelName":"write_file","action":"drop_ack"}]`})
		_, err := s.execute("write_file", create)
		protocolError(err)
		Eventually(func() string { return s.onDisk("a.txt") }).Should(Equal("hello"))
		Eventually(s.hostExited, 5*time.Second).Should(BeTrue(), "the transport was closed in both directions")
		Expect(s.proxy.Faults()).To(HaveExactElements(HaveField("Detail", "dropped the host's answer and closed the transport")))
		Expect(s.proxy.BrokeTransport()).To(BeTrue(), "the proxy, not the host, ended the transport")
	})

	It("corrupt_result envelope: malformed output after the host's real write", func() {
		s := startSession(setup{rules: `[{"method":"tool/execute","modelName":"write_file","action":"corrupt_result"}]`})
		_, err := s.execute("write_file", create)
		Expect(protocolError(err).Pointer).To(HavePrefix("/result"))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
		r, err := s.execute("write_file", createB)
		Expect(err).To(HaveOccurred(), "the rule fires on every call")
		Expect(r.OK).To(BeFalse())
		Expect(s.onDisk("b.txt")).To(Equal("again"), "the host stays usable and keeps writing")
		Expect(s.proxy.Faults()).To(HaveEach(HaveField("Detail", "replaced the host's result with an object no result schema accepts")))
		Expect(s.proxy.BrokeTransport()).To(BeFalse(), "a malformed result is still a well-formed line")
	})

	It("corrupt_result json: an answer that is not JSON after the host's real write", func() {
		s := startSession(setup{rules: `[{"method":"tool/execute","modelName":"write_file","action":"corrupt_result","corruption":"json"}]`})
		_, err := s.execute("write_file", create)
		Expect(protocolError(err).Reason).To(ContainSubstring("JSON"))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
		Expect(s.proxy.Faults()).To(HaveExactElements(HaveField("Detail", "replaced the host's answer with its first half, which is not JSON")))
		Expect(s.proxy.BrokeTransport()).To(BeTrue(), "the proxy, not the host, sent the line that is not JSON")
	})

	It("throw_after_commit: the host wrote, the client gets an unknown outcome naming the canonical tool", func() {
		s := startSession(setup{rules: `[{"method":"tool/execute","modelName":"write_file","action":"throw_after_commit"}]`})
		_, err := s.execute("write_file", create)
		Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(), "%v", err)
		Expect(rpcError(err).Data).To(HaveKeyWithValue("canonicalToolId", "workspace.write"))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
	})

	It("forge_effects: the client sees a write the host never made, beside the one it made", func() {
		s := startSession(setup{rules: `[{"method":"tool/execute","modelName":"write_file","action":"forge_effects",
			"effects":{"writes":[{"path":"ghost.txt","beforeHash":null,"afterHash":"sha256:00","beforeKind":"missing","afterKind":"file"}],"inspectedPaths":["secret"]}}]`})
		r, err := s.execute("write_file", create)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue(), r.Content)
		Expect(r.EffectsAuthority).To(Equal("host"))
		Expect(r.Effects.Writes).To(HaveLen(2))
		Expect(r.Effects.Writes[0].Path).To(Equal("a.txt"))
		Expect(r.Effects.Writes[0].AfterHash).To(HaveValue(Equal(helloHash)), "the host's own evidence is kept")
		Expect(r.Effects.Writes[1].Path).To(Equal("ghost.txt"))
		Expect(r.Effects.InspectedPaths).To(Equal([]string{"secret"}))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
		Expect(s.onDisk("ghost.txt")).To(Equal(absent))
	})

	It("mismatch_id: matched by canonical ID, the result claims another tool; other tools pass", func() {
		s := startSession(setup{rules: `[{"method":"tool/execute","canonicalToolId":"workspace.write","action":"mismatch_id","claimCanonicalToolId":"workspace.read"}]`})
		r, err := s.execute("write_file", create)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue(), r.Content)
		Expect(r.CanonicalToolID).To(Equal("workspace.read"))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
		r, err = s.execute("edit_file", map[string]any{"path": "a.txt", "oldText": "hello", "newText": "bye"})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue(), r.Content)
		Expect(r.CanonicalToolID).To(Equal("workspace.edit"))
		Expect(s.onDisk("a.txt")).To(Equal("bye"))
		Expect(s.proxy.Faults()).To(HaveExactElements(And(HaveField("CanonicalToolID", "workspace.write"),
			HaveField("Detail", `replaced canonicalToolId workspace.write with "workspace.read"`))))
	})

	It("records faults in the order applied, across methods", func() {
		s := startSession(setup{rules: `[
			{"method":"tool/execute","nth":1,"action":"delay","delayMs":1},
			{"method":"tool/execute","nth":2,"action":"mismatch_id","claimCanonicalToolId":"x.y"},
			{"method":"tools/list","nth":2,"action":"fail"}]`})
		_, err := s.execute("write_file", create)
		Expect(err).NotTo(HaveOccurred())
		r, err := s.execute("write_file", createB)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.CanonicalToolID).To(Equal("x.y"))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
		Expect(s.onDisk("b.txt")).To(Equal("again"))
		_, err = s.client.ToolSet(context.Background())
		Expect(errors.Is(err, wire.ErrInternal)).To(BeTrue(), "%v", err)
		var got []string
		for i, f := range s.proxy.Faults() {
			Expect(f.Seq).To(Equal(i + 1))
			got = append(got, f.Action+" "+f.Method+" "+f.RequestID)
		}
		Expect(got).To(Equal([]string{"delay tool/execute 3", "mismatch_id tool/execute 4", "fail tools/list 5"}))
	})
})

var _ = Describe("cancel against the reference host's command.run", func() {
	BeforeEach(func() {
		if runtime.GOOS == "windows" {
			Skip("these specs script /bin/sh")
		}
	})

	It("cancels mid-command: the late write never happens and no process is left", func() {
		s := startSession(setup{uncontained: true,
			rules: `[{"method":"tool/execute","modelName":"run_command","action":"cancel","cancelAfterMs":1000}]`})
		pids := filepath.Join(GinkgoT().TempDir(), "pids")
		start := time.Now()
		r, err := s.execute("run_command", map[string]any{
			"command": `echo $$ > "$PIDS"; sleep 3 & echo $! >> "$PIDS"; wait; printf done > late.txt`,
			"env":     map[string]string{"PIDS": pids},
		})
		Expect(err).NotTo(HaveOccurred(), "the host's answer to a cancelled call is forwarded as usual")
		Expect(r.OK).To(BeTrue(), r.Content)
		Expect(r.CanonicalToolID).To(Equal("command.run"))
		var out struct {
			Cancelled, TimedOut bool
		}
		Expect(json.Unmarshal([]byte(r.Content), &out)).To(Succeed())
		Expect(out).To(Equal(struct{ Cancelled, TimedOut bool }{Cancelled: true}), r.Content)
		Expect(r.Effects.Writes).To(BeEmpty())
		Expect(time.Since(start)).To(BeNumerically("<", 3*time.Second), "the host stopped the command early")
		running := pidsIn(pids)
		Expect(running).To(HaveLen(2), "the command was running when the cancellation arrived")
		for _, pid := range running {
			Eventually(func() bool { return proc.Alive(pid) }, 5*time.Second).Should(BeFalse(), "process %d is gone", pid)
		}
		Consistently(func() string { return s.onDisk("late.txt") }, time.Until(start.Add(3500*time.Millisecond)), 100*time.Millisecond).
			Should(Equal(absent))
		Expect(s.proxy.Faults()).To(HaveExactElements(And(HaveField("CanonicalToolID", "command.run"),
			HaveField("Detail", "sent $/cancelRequest to the host after 1000 ms"))))
	})
})

// pidsIn reads the process IDs a command wrote to a file; nil while it is
// missing or holds anything else.
func pidsIn(path string) []int {
	pids, _ := proc.ReadPIDs(path)
	return pids
}
