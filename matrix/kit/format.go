package kit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/projectformat"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// formatCallTimeout bounds one project.format call and one job/observe.
const formatCallTimeout = 60 * time.Second

// FormatOptions configure a project-format session.
type FormatOptions struct {
	// Offer are the extension flags offered in initialize; nil offers
	// every flag conform knows.
	Offer []string
	// ApprovalProfile is sent in initialize; "" means balanced.
	ApprovalProfile string
	// Approve answers approval/request; nil allows project.format.
	Approve func(context.Context, wire.ApprovalParams) (wire.ApprovalDecision, error)
	// WithoutFormatter starts the host with a PATH from which every
	// directory holding this executable is removed.
	WithoutFormatter string
	// Workspace and Store reuse the directories of an earlier session (a
	// fresh host on the same storeDir); "" makes new ones.
	Workspace, Store string
}

// A FormatSession is one host process serving project.format checks.
type FormatSession struct {
	Host             *session.Host
	Workspace, Store string
	c                *TestContext
	n                int
}

// StartFormat starts the host under test for a project-format check. The
// host inherits the harness's Rust toolchain location (RUSTUP_HOME,
// CARGO_HOME), so that a rustup-installed rustfmt runs under the
// session's own HOME.
func StartFormat(c *TestContext, o FormatOptions) *FormatSession {
	GinkgoHelper()
	t := c.Host()
	s := &FormatSession{Workspace: o.Workspace, Store: o.Store, c: c}
	if s.Workspace == "" {
		dir := GinkgoT().TempDir()
		s.Workspace, s.Store = filepath.Join(dir, "workspace"), filepath.Join(dir, "store")
		Expect(os.Mkdir(s.Workspace, 0o755)).To(Succeed())
	}
	offer := o.Offer
	if offer == nil {
		offer = catalog.ExtensionFlags()
	}
	approve := o.Approve
	if approve == nil {
		approve = func(_ context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			return wire.ApprovalDecision{Approved: p.CanonicalToolID == catalog.ProjectFormatID, Scope: "once", Reason: "The check allows project.format only."}, nil
		}
	}
	ctx, cancel := context.WithTimeout(c.Ctx(), freshHostTimeout)
	defer cancel()
	h, err := session.StartHost(ctx, session.HostConfig{
		Argv: t.Argv, Workspace: s.Workspace, StoreDir: s.Store, PassEnv: t.Env, Env: formatEnv(o.WithoutFormatter, t.Env),
		ApprovalProfile: o.ApprovalProfile, Approve: approve,
		EditInitialize: func(p *wire.InitializeParams) { p.Extensions = slices.Clone(offer) },
	})
	Expect(err).NotTo(HaveOccurred(), "the host does not start for a project-format check")
	DeferCleanup(func() { _ = h.Close() })
	s.Host = h
	return s
}

// formatEnv is the host's environment for a format check: PATH (less the
// directories that hold without), LANG, a HOME of its own, the Rust
// toolchain location and the variables pass names (--host-env; a name
// ending in "*" is a prefix).
func formatEnv(without string, pass []string) []string {
	home := GinkgoT().TempDir()
	path := os.Getenv("PATH")
	if without != "" {
		var kept []string
		for _, d := range filepath.SplitList(path) {
			if _, err := os.Stat(filepath.Join(d, without)); err != nil {
				kept = append(kept, d)
			}
		}
		path = strings.Join(kept, string(os.PathListSeparator))
	}
	tmp := filepath.Join(home, "tmp")
	Expect(os.Mkdir(tmp, 0o700)).To(Succeed())
	// A temporary directory of the session's own, as every host gets, and
	// the probe cache conform shares with its built-in hosts.
	env := []string{"PATH=" + path, "HOME=" + home, "TMPDIR=" + tmp}
	if dir, ok := os.LookupEnv(hostproc.CacheEnv); ok {
		env = append(env, hostproc.CacheEnv+"="+dir)
	}
	userHome, _ := os.UserHomeDir()
	for _, v := range []struct{ name, dflt string }{{"RUSTUP_HOME", ".rustup"}, {"CARGO_HOME", ".cargo"}} {
		if x := os.Getenv(v.name); x != "" {
			env = append(env, v.name+"="+x)
		} else if fi, err := os.Stat(filepath.Join(userHome, v.dflt)); userHome != "" && err == nil && fi.IsDir() {
			env = append(env, v.name+"="+filepath.Join(userHome, v.dflt))
		}
	}
	for _, name := range []string{"LANG", "SystemRoot", "SystemDrive", "ComSpec", "PATHEXT", "WINDIR"} {
		if x, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+x)
		}
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		for _, p := range pass {
			if prefix, ok := strings.CutSuffix(p, "*"); (ok && strings.HasPrefix(name, prefix)) || name == p {
				env = append(env, kv)
				break
			}
		}
	}
	return env
}

// Advertises reports whether the host advertised flag in initialize.
func (s *FormatSession) Advertises(flag string) bool {
	return slices.Contains(s.Host.Init.Extensions, flag)
}

// NeedFormat ends the spec as not applicable unless the host advertises
// every flag.
func (s *FormatSession) NeedFormat(flags ...string) {
	GinkgoHelper()
	for _, f := range flags {
		if !s.Advertises(f) {
			NotApplicable(fmt.Sprintf("the host does not advertise %s (initialize extensions %v)", f, s.Host.Init.Extensions))
		}
	}
}

// Write writes workspace files (parents made), relative path → content.
func (s *FormatSession) Write(files map[string]string) {
	GinkgoHelper()
	for rel, content := range files {
		abs := filepath.Join(s.Workspace, filepath.FromSlash(rel))
		Expect(os.MkdirAll(filepath.Dir(abs), 0o755)).To(Succeed())
		Expect(os.WriteFile(abs, []byte(content), 0o644)).To(Succeed())
	}
}

// Read returns a workspace file's content ("" when it cannot be read).
func (s *FormatSession) Read(rel string) string {
	b, err := os.ReadFile(filepath.Join(s.Workspace, filepath.FromSlash(rel)))
	if err != nil {
		return ""
	}
	return string(b)
}

// Identity is a file's inode and modification time: a write through a new
// file or in place changes one of them.
func (s *FormatSession) Identity(rel string) string {
	fi, err := os.Lstat(filepath.Join(s.Workspace, filepath.FromSlash(rel)))
	if err != nil {
		return "missing"
	}
	return fi.ModTime().Format(time.RFC3339Nano) + inode(fi)
}

// A FormatCall is one project.format call and its answer.
type FormatCall struct {
	CallID string
	Result port.ToolResult
	// Err is the call's error: an unknown outcome (-32010) or another
	// protocol error.
	Err error
	// Report is the decoded content of an ok result.
	Report map[string]any
}

// Unknown reports whether the host answered an unknown outcome.
func (f FormatCall) Unknown() bool {
	var we *wire.Error
	return errors.As(f.Err, &we) && we.Code == wire.ErrUnknownOutcome.Code
}

// Format calls format_project with args; callID "" makes a new one.
func (s *FormatSession) Format(callID string, args map[string]any) FormatCall {
	GinkgoHelper()
	if callID == "" {
		s.n++
		callID = fmt.Sprintf("pf-call-%d", s.n)
	}
	raw, err := json.Marshal(args)
	Expect(err).NotTo(HaveOccurred())
	ctx, cancel := context.WithTimeout(s.c.Ctx(), formatCallTimeout)
	defer cancel()
	r, err := s.Host.Client().Execute(ctx, wire.ExecuteParams{
		CallID: callID, ModelName: catalog.ProjectFormatModelName, Arguments: raw, IdempotencyKey: "idem-" + callID,
		TimeoutMs: int(formatCallTimeout / time.Millisecond), Context: wire.RunContext{RunID: "pf-run", TaskID: "pf-task", Mode: port.ModeAuto},
	})
	out := FormatCall{CallID: callID, Result: r, Err: err}
	if err == nil && r.OK {
		Expect(json.Unmarshal([]byte(r.Content), &out.Report)).To(Succeed(), "the format_project content is not a JSON object: %.200q", r.Content)
	}
	if err != nil && !out.Unknown() {
		Fail(fmt.Sprintf("format_project broke the protocol: %v", err))
	}
	return out
}

// Observe asks the host for the job of callID; nil when it has none.
func (s *FormatSession) Observe(callID string) *projectformat.Job {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(s.c.Ctx(), formatCallTimeout)
	defer cancel()
	var r wire.JobObserveResult
	Expect(s.Host.Client().Call(ctx, wire.MethodJobObserve, wire.JobObserveParams{CallID: callID}, formatCallTimeout, &r)).
		To(Succeed(), "job/observe of %s failed", callID)
	return r.Job
}

// Fresh starts another host process on this session's workspace and
// store directory.
func (s *FormatSession) Fresh(o FormatOptions) *FormatSession {
	GinkgoHelper()
	o.Workspace, o.Store = s.Workspace, s.Store
	return StartFormat(s.c, o)
}

// RefusedWithoutWrite asserts that call failed as an ordinary result (or
// an unknown outcome) and that every file in before still holds its
// content.
func (s *FormatSession) RefusedWithoutWrite(what string, call FormatCall, before map[string]string) {
	GinkgoHelper()
	Expect(call.Err == nil && call.Result.OK).To(BeFalse(), "%s: format_project succeeded (%.300q); it must be refused", what, call.Result.Content)
	for rel, content := range before {
		Expect(s.Read(rel)).To(Equal(content), "%s: %s was written although the call was refused", what, rel)
	}
}

// Crash kills the host process without a shutdown, as a crash or a lost
// machine would, and closes the connection.
func (s *FormatSession) Crash() {
	if proc, err := os.FindProcess(s.Host.Client().PID()); err == nil {
		_ = proc.Kill()
	}
	_ = s.Host.Close()
}
