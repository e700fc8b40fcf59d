package kit

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A Direct is a host process of the host under test that a check drives
// request by request, on a workspace and store directory of its own (no
// scenario, no core run): the way to put a precise question to the host
// and read its answer as sent. Every approval request is granted and
// containment backends are forbidden.
type Direct struct {
	c *TestContext
	// H is the started host.
	H *session.Host
	// Parent holds Workspace, Store and whatever the check lays out beside
	// them; all are real paths (no symlink in them).
	Parent, Workspace, Store string
	n                        int
}

// A DirectResult is one tool/execute answer of [Direct.Tool].
type DirectResult struct {
	port.ToolResult
	// Out is the decoded content of an ok result (nil otherwise).
	Out map[string]any
}

// directTimeout bounds one request of a Direct.
const directTimeout = 20 * time.Second

// StartDirect starts the host under test on a fresh workspace holding
// files (workspace-relative slash path → content), after lay (which may be
// nil) has added its entries, and a fresh store directory, approving every
// approval request; both are removed and the host closed when the spec
// ends.
func StartDirect(c *TestContext, files map[string]string, lay func(d *Direct)) *Direct {
	GinkgoHelper()
	dir, err := os.MkdirTemp("", "conform-direct-")
	Expect(err).NotTo(HaveOccurred(), "the harness cannot make a directory for the host")
	DeferCleanup(func() { _ = os.RemoveAll(dir) })
	parent, err := filepath.EvalSymlinks(dir)
	Expect(err).NotTo(HaveOccurred(), "the harness cannot resolve the host's directory")
	d := &Direct{c: c, Parent: parent, Workspace: filepath.Join(parent, "workspace"), Store: filepath.Join(parent, "store")}
	for _, p := range []string{d.Workspace, d.Store} {
		Expect(os.Mkdir(p, 0o755)).To(Succeed(), "the harness cannot make %s", p)
	}
	for rel, content := range files {
		p := filepath.Join(d.Workspace, filepath.FromSlash(rel))
		Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed(), "the harness cannot make the parent of %s", rel)
		Expect(os.WriteFile(p, []byte(content), 0o644)).To(Succeed(), "the harness cannot seed %s", rel)
	}
	if lay != nil {
		lay(d)
	}
	d.start()
	return d
}

// start starts a host process of the host under test on d's directories.
func (d *Direct) start() {
	GinkgoHelper()
	t := d.c.Host()
	ctx, cancel := context.WithTimeout(d.c.Ctx(), freshHostTimeout)
	defer cancel()
	h, err := session.StartHost(ctx, session.HostConfig{Argv: t.Argv, Workspace: d.Workspace, StoreDir: d.Store,
		PassEnv: t.Env, ForbidContainment: true, Approvals: map[string]string{"workspace.write": "allow", "workspace.edit": "allow", "command.run": "allow", "project.validate": "allow"},
		ApprovalProfile: "trusted-workspace"})
	Expect(err).NotTo(HaveOccurred(), "the host does not start and initialize on a workspace of its own")
	DeferCleanup(func() { _ = h.Close() })
	d.H = h
}

// Fresh starts another process of the host under test on d's workspace and
// store directory, as a fresh-host resume does.
func (d *Direct) Fresh() *Direct {
	GinkgoHelper()
	f := &Direct{c: d.c, Parent: d.Parent, Workspace: d.Workspace, Store: d.Store}
	f.start()
	return f
}

// Kill ends the host process at once (SIGKILL on POSIX), as a crash
// does, and waits until it is gone.
func (d *Direct) Kill() {
	GinkgoHelper()
	pid := d.H.Client().PID()
	Expect(pid).To(BeNumerically(">", 0), "the host process has no ID to kill")
	p, err := os.FindProcess(pid)
	Expect(err).NotTo(HaveOccurred())
	Expect(p.Kill()).To(Succeed(), "the harness cannot kill the host process %d", pid)
	_ = d.H.Close()
}

// A DirectCall is one tool/execute of a Direct and the host's answer.
type DirectCall struct {
	wire.ExecuteParams
	// Result is the envelope the host answered, nil when it answered an
	// error (Err).
	Result *port.ToolResult
	Err    error
}

// Exec sends one tool/execute of model with args in mode ("" is auto),
// with a call ID and idempotency key of its own.
func (d *Direct) Exec(model string, args map[string]any, mode string) DirectCall {
	GinkgoHelper()
	return d.ExecKeyed(model, args, mode, "")
}

// ExecKeyed is Exec with the idempotency key key ("" is a key of the
// call's own).
func (d *Direct) ExecKeyed(model string, args map[string]any, mode, key string) DirectCall {
	GinkgoHelper()
	d.n++
	if mode == "" {
		mode = "auto"
	}
	raw, err := json.Marshal(args)
	Expect(err).NotTo(HaveOccurred())
	id := fmt.Sprintf("direct-%d-%s", d.n, model)
	if key == "" {
		key = id
	}
	p := wire.ExecuteParams{CallID: id, ModelName: model, Arguments: raw, IdempotencyKey: key, TimeoutMs: 10000,
		Context: wire.RunContext{RunID: "direct-run", TaskID: "direct-task", Mode: mode}}
	ctx, cancel := d.Ctx()
	defer cancel()
	r, err := d.H.Client().Execute(ctx, p)
	call := DirectCall{ExecuteParams: p, Err: err}
	if err == nil {
		call.Result = &r
	}
	return call
}

// Call sends one request of method and decodes its answer into out.
func (d *Direct) Call(method string, params, out any) error {
	ctx, cancel := d.Ctx()
	defer cancel()
	return d.H.Client().Call(ctx, method, params, directTimeout, out)
}

// Ctx bounds one wire call of the check beyond tool/execute.
func (d *Direct) Ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(d.c.Ctx(), directTimeout)
}

// Tool executes one tool call in mode auto with a call ID and idempotency
// key of its own and returns the host's result; a JSON-RPC error fails
// the spec.
func (d *Direct) Tool(model string, args map[string]any) DirectResult {
	GinkgoHelper()
	call := d.Exec(model, args, "")
	Expect(call.Err).NotTo(HaveOccurred(), "%s %s: the host did not answer with a result", model, call.Arguments)
	res := DirectResult{ToolResult: *call.Result}
	if res.OK {
		Expect(json.Unmarshal([]byte(res.Content), &res.Out)).To(Succeed(), "%s %s: the content of the ok result is not a JSON object: %.200q", model, call.Arguments, res.Content)
	}
	return res
}

// OK is Tool for a call that must succeed.
func (d *Direct) OK(model string, args map[string]any) map[string]any {
	GinkgoHelper()
	r := d.Tool(model, args)
	Expect(r.OK).To(BeTrue(), "%s %v failed: %.300s", model, args, errorText(r.ToolResult))
	return r.Out
}

func errorText(r port.ToolResult) string {
	if r.Error != nil {
		return r.Error.Code + ": " + r.Error.Message
	}
	return r.Content
}

// Failed asserts the call was answered with an ok=false envelope, and
// returns it with its content decoded.
func (c DirectCall) Failed() (*port.ToolResult, map[string]any) {
	GinkgoHelper()
	Expect(c.Err).NotTo(HaveOccurred(), "%s (%s) was answered with an error instead of a failed result", c.CallID, c.Arguments)
	Expect(c.Result.OK).To(BeFalse(), "%s (%s) succeeded; it must fail", c.CallID, c.Arguments)
	Expect(c.Result.Error).NotTo(BeNil(), "the failed result of %s carries no error", c.CallID)
	var content map[string]any
	Expect(json.Unmarshal([]byte(c.Result.Content), &content)).To(Succeed(),
		"the content of the failed result of %s is not a JSON object: %.200q", c.CallID, c.Result.Content)
	return c.Result, content
}

// Entries lists the workspace's paths (slash-separated, sorted), the
// directories with a trailing slash.
func (d *Direct) Entries() []string {
	GinkgoHelper()
	var out []string
	err := filepath.WalkDir(d.Workspace, func(p string, e fs.DirEntry, err error) error {
		if err != nil || p == d.Workspace {
			return err
		}
		rel, _ := filepath.Rel(d.Workspace, p)
		rel = filepath.ToSlash(rel)
		if e.IsDir() {
			rel += "/"
		}
		out = append(out, rel)
		return nil
	})
	Expect(err).NotTo(HaveOccurred(), "the harness cannot walk the workspace")
	sort.Strings(out)
	return out
}

// Exists reports whether the workspace-relative path rel exists.
func (d *Direct) Exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(d.Workspace, filepath.FromSlash(strings.TrimPrefix(rel, "/"))))
	return err == nil
}

// Read returns the content of the workspace file rel, or "" when it cannot
// be read.
func (d *Direct) Read(rel string) string {
	b, err := os.ReadFile(filepath.Join(d.Workspace, filepath.FromSlash(rel)))
	if err != nil {
		return ""
	}
	return string(b)
}
