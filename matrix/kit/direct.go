package kit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// directTimeout bounds one wire call of a direct spec.
const directTimeout = 20 * time.Second

// A DirectSession is one host process a Go spec drives over the wire on a
// workspace it lays out itself: the host tool profile, mode auto, every
// approval granted, containment backends forbidden. The workspace is the
// directory "workspace" in Parent, so a spec can put siblings beside it.
type DirectSession struct {
	c *TestContext
	H *session.Host
	// Parent holds Workspace and whatever the spec lays out beside it;
	// both are real paths (no symlink in them).
	Parent, Workspace string
	n                 int
}

// A DirectResult is one tool/execute answer of a direct spec.
type DirectResult struct {
	port.ToolResult
	// Out is the decoded content of an ok result (nil otherwise).
	Out map[string]any
}

// StartDirect makes a temporary directory, writes files (workspace-
// relative POSIX path → content) into its workspace, lets lay add entries
// (lay may be nil) and starts the host under test on it. Everything is
// removed when the spec ends.
func StartDirect(c *TestContext, files map[string]string, lay func(s *DirectSession)) *DirectSession {
	GinkgoHelper()
	dir, err := os.MkdirTemp("", "conform-direct-")
	Expect(err).NotTo(HaveOccurred(), "the harness cannot make the spec's directory")
	DeferCleanup(func() { _ = os.RemoveAll(dir) })
	parent, err := filepath.EvalSymlinks(dir)
	Expect(err).NotTo(HaveOccurred(), "the harness cannot resolve the spec's directory")
	s := &DirectSession{c: c, Parent: parent, Workspace: filepath.Join(parent, "workspace")}
	store := filepath.Join(parent, "store")
	for _, d := range []string{s.Workspace, store} {
		Expect(os.Mkdir(d, 0o755)).To(Succeed(), "the harness cannot make %s", d)
	}
	for rel, content := range files {
		p := filepath.Join(s.Workspace, filepath.FromSlash(rel))
		Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed(), "the harness cannot make the parent of %s", rel)
		Expect(os.WriteFile(p, []byte(content), 0o644)).To(Succeed(), "the harness cannot write %s", rel)
	}
	if lay != nil {
		lay(s)
	}
	t := c.Host()
	cfg := session.HostConfig{Argv: t.Argv, Workspace: s.Workspace, StoreDir: store, PassEnv: t.Env,
		ForbidContainment: true, Approvals: map[string]string{}}
	ctx, cancel := context.WithTimeout(c.Ctx(), freshHostTimeout)
	defer cancel()
	h, err := session.StartHost(ctx, cfg)
	Expect(err).NotTo(HaveOccurred(), "the host does not start and initialize on the spec's workspace")
	DeferCleanup(func() { _ = h.Close() })
	s.H = h
	return s
}

// Ctx bounds one wire call of the spec beyond tool/execute.
func (s *DirectSession) Ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(s.c.Ctx(), directTimeout)
}

// Call executes one tool call with a fresh call ID and idempotency key and
// returns the host's result; a JSON-RPC error fails the spec.
func (s *DirectSession) Call(model string, args map[string]any) DirectResult {
	GinkgoHelper()
	raw, err := json.Marshal(args)
	Expect(err).NotTo(HaveOccurred(), "the harness cannot encode the %s arguments %v", model, args)
	s.n++
	id := fmt.Sprintf("direct-%s-%d", model, s.n)
	p := wire.ExecuteParams{CallID: id, ModelName: model, Arguments: raw, IdempotencyKey: id,
		TimeoutMs: int(directTimeout / time.Millisecond), Context: wire.RunContext{RunID: "direct-run", TaskID: "direct-task", Mode: "auto"}}
	ctx, cancel := context.WithTimeout(s.c.Ctx(), directTimeout+3*time.Second)
	defer cancel()
	r, err := s.H.Client().Execute(ctx, p)
	Expect(err).NotTo(HaveOccurred(), "%s %s: the host did not answer with a result", model, raw)
	res := DirectResult{ToolResult: r}
	if r.OK {
		Expect(json.Unmarshal([]byte(r.Content), &res.Out)).To(Succeed(), "%s %s: the content of the ok result is not a JSON object: %.200q", model, raw, r.Content)
	}
	return res
}

// OK is Call for a call that must succeed.
func (s *DirectSession) OK(model string, args map[string]any) map[string]any {
	GinkgoHelper()
	r := s.Call(model, args)
	Expect(r.OK).To(BeTrue(), "%s %v failed: %.300s", model, args, errorText(r.ToolResult))
	return r.Out
}

func errorText(r port.ToolResult) string {
	if r.Error != nil {
		return r.Error.Code + ": " + r.Error.Message
	}
	return r.Content
}
