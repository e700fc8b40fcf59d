package proxy_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// testHost is a minimal real host process for the proxy's tests: it backs
// workspace.write (write_file) and a slow variant of it that waits for
// waitMs before writing and gives up when the call is cancelled.
type testHost struct {
	mu   sync.Mutex
	root string
}

var testTools = map[string]string{"write_file": "workspace.write", "slow_write": "workspace.edit"}

func (h *testHost) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case wire.MethodInitialize:
		var p struct {
			WorkspaceRoot string `json:"workspaceRoot"`
		}
		_ = json.Unmarshal(params, &p)
		h.mu.Lock()
		h.root = p.WorkspaceRoot
		h.mu.Unlock()
		return wire.InitializeResult{ProtocolVersion: wire.ProtocolVersion, Host: wire.HostInfo{Name: "proxy-test-host", Version: "1"},
			Tools: []string{"workspace.edit", "workspace.write"}}, nil
	case wire.MethodToolsList:
		set := port.ToolSet{Definitions: []port.ToolDefinition{}, CanonicalToolIDs: testTools,
			EffectCapabilities: map[string][]string{"workspace.edit": {"approval", "state_version", "write"}, "workspace.write": {"approval", "state_version", "write"}},
			SnapshotHash:       "sha256:" + hex.EncodeToString(make([]byte, 32))}
		for name := range testTools {
			set.Definitions = append(set.Definitions, port.ToolDefinition{Type: "function",
				Function: port.FunctionSpec{Name: name, Description: name, Parameters: map[string]any{"type": "object"}}})
		}
		return set, nil
	case wire.MethodExecute:
		return h.execute(ctx, params)
	case wire.MethodShutdown:
		return struct{}{}, nil
	}
	return nil, wire.ErrMethodNotFound
}

func (h *testHost) execute(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		ModelName string `json:"modelName"`
		Arguments struct {
			Path    string `json:"path"`
			Content string `json:"content"`
			WaitMs  int    `json:"waitMs"`
		} `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, wire.ErrInvalidParams
	}
	if p.ModelName == "slow_write" {
		select {
		case <-time.After(time.Duration(p.Arguments.WaitMs) * time.Millisecond):
		case <-ctx.Done():
			return nil, wire.ErrRequestCancelled
		}
	}
	h.mu.Lock()
	root := h.root
	h.mu.Unlock()
	if err := os.WriteFile(filepath.Join(root, p.Arguments.Path), []byte(p.Arguments.Content), 0o644); err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(p.Arguments.Content))
	after := "sha256:" + hex.EncodeToString(sum[:])
	return port.ToolResult{OK: true, CanonicalToolID: testTools[p.ModelName], Content: `{"path":"` + p.Arguments.Path + `"}`,
		Summary: "wrote " + p.Arguments.Path, Trust: "trusted", EffectsAuthority: "host",
		Effects: &port.Effects{Approval: "not_required", Writes: []port.Write{{Path: p.Arguments.Path, AfterHash: &after, BeforeKind: "missing", AfterKind: "file"}}}}, nil
}
