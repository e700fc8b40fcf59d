package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/doubles"
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
)

// A toolCall is one tool/execute the recorder sends: a model name and its
// arguments.
type toolCall struct {
	Name string
	Args map[string]any
}

// A scenario is how one tool's worked example is produced: a workspace, the
// calls that prepare it (not shown) and the one call whose exchange is the
// example.
type scenario struct {
	// Doubles runs the example on the doubles host (the reference host plus
	// the nine optional tools as deterministic doubles, full_contract
	// profile) instead of the reference host alone (host profile).
	Doubles bool
	// Files are written into the workspace before the session starts.
	Files map[string]string
	// Git makes the workspace a git repository whose files are committed
	// before Edit is applied.
	Git bool
	// Edit, applied after the commit, changes or adds files.
	Edit map[string]string
	// Before are calls made first and left out of the example.
	Before []toolCall
	// Call is the example.
	Call toolCall
}

// A line is one message of an example, as it crossed the wire.
type line struct {
	// FromHost is true for what the host wrote on its stdout.
	FromHost bool
	Text     string
}

// An example is the recorded exchange of one tool call.
type example struct {
	ID    string
	Host  string // "reference" or "doubles"
	Lines []line
}

// placeholders replace the values a run does not control: the session's
// directories.
const (
	workspacePlaceholder = "/workspace"
	storePlaceholder     = "/store"
)

// record runs sc against a fresh in-process host and returns the
// normalised exchange of its last call.
func record(ctx context.Context, id string, sc scenario) (example, error) {
	dir, err := os.MkdirTemp("", "conform-gendoc-")
	if err != nil {
		return example{}, err
	}
	defer os.RemoveAll(dir)
	ws, store := filepath.Join(dir, "workspace"), filepath.Join(dir, "store")
	if err := os.Mkdir(ws, 0o755); err != nil {
		return example{}, err
	}
	if err := writeFiles(ws, sc.Files); err != nil {
		return example{}, err
	}
	if sc.Git {
		if err := gitCommitAll(ctx, ws); err != nil {
			return example{}, err
		}
	}
	if err := writeFiles(ws, sc.Edit); err != nil {
		return example{}, err
	}

	var h jsonrpc.Handler = reference.NewWith(reference.Options{Prober: prober()})
	host, profile := "reference", wire.ToolProfileHost
	if sc.Doubles {
		h, host, profile = doubles.NewHandler(h), "doubles", wire.ToolProfileFullContract
	}
	var mu sync.Mutex
	var lines []line
	recording := false
	rec := func(fromHost bool) func([]byte) {
		return func(b []byte) {
			mu.Lock()
			defer mu.Unlock()
			if recording {
				lines = append(lines, line{FromHost: fromHost, Text: strings.TrimRight(string(b), "\n")})
			}
		}
	}
	cr, hw := io.Pipe()
	hr, cw := io.Pipe()
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = kit.Serve(ctx, hr, hw, h)
		hw.Close()
	}()
	c := hostproc.Connect(cr, cw, hostproc.StartOptions{
		Approver: approveAll, OnSend: rec(false), OnRecv: rec(true), CallTimeout: 30 * time.Second,
	})
	defer func() {
		_ = c.Close(5 * time.Second)
		<-served
	}()
	if _, err := c.Initialize(ctx, wire.InitializeParams{
		ProtocolVersion: wire.ProtocolVersion, WorkspaceRoot: ws, StoreDir: store,
		Catalog:       catalog.ForHost(),
		EffectProfile: wire.EffectProfile{Version: effects.ProfileVersion, Tools: effects.CoreProfile()},
		Mode:          port.ModeAuto, ApprovalProfile: "balanced", Containment: wire.ContainmentBestEffort,
		ToolProfile: profile, ForbidContainmentBackends: true,
	}); err != nil {
		return example{}, fmt.Errorf("%s: initialize: %w", id, err)
	}
	if _, err := c.ToolSet(ctx); err != nil {
		return example{}, fmt.Errorf("%s: tools/list: %w", id, err)
	}
	calls := append(append([]toolCall{}, sc.Before...), sc.Call)
	for i, tc := range calls {
		last := i == len(calls)-1
		mu.Lock()
		recording = last
		mu.Unlock()
		raw, err := json.Marshal(tc.Args)
		if err != nil {
			return example{}, err
		}
		res, err := c.Execute(ctx, wire.ExecuteParams{
			CallID: fmt.Sprintf("call-%d", i+1), ModelName: tc.Name, Arguments: raw,
			IdempotencyKey: fmt.Sprintf("key-%d", i+1), TimeoutMs: 120000,
			Context: wire.RunContext{RunID: "run-1", TaskID: "task-1", Mode: port.ModeAuto},
		})
		if err != nil {
			return example{}, fmt.Errorf("%s: %s: %w", id, tc.Name, err)
		}
		if !res.OK && !last {
			return example{}, fmt.Errorf("%s: preparing call %s failed: %s", id, tc.Name, res.Content)
		}
	}
	mu.Lock()
	recording = false
	out := example{ID: id, Host: host, Lines: normalise(lines, ws, store)}
	mu.Unlock()
	return out, nil
}

// approveAll is the harness's answer to every approval/request of an
// example: approved once.
func approveAll(context.Context, wire.ApprovalParams) (wire.ApprovalDecision, error) {
	return wire.ApprovalDecision{Approved: true, Scope: "once"}, nil
}

// normalise replaces the session's absolute directories with fixed
// placeholders; nothing else a run produces varies.
func normalise(lines []line, ws, store string) []line {
	r := strings.NewReplacer(ws, workspacePlaceholder, store, storePlaceholder)
	out := make([]line, len(lines))
	for i, l := range lines {
		out[i] = line{FromHost: l.FromHost, Text: r.Replace(l.Text)}
	}
	return out
}

func writeFiles(root string, files map[string]string) error {
	for p, content := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// gitCommitAll makes dir a repository with one commit of everything in it,
// with a fixed author, committer and date so that the commit ID is stable.
func gitCommitAll(ctx context.Context, dir string) error {
	env := append(os.Environ(),
		"GIT_AUTHOR_NAME=conform", "GIT_AUTHOR_EMAIL=conform@example.invalid", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z",
		"GIT_COMMITTER_NAME=conform", "GIT_COMMITTER_EMAIL=conform@example.invalid", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "--no-gpg-sign", "-m", "initial"},
	} {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}
