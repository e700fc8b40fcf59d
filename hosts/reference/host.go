package reference

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/gowebpki/jcs"
)

// Name and Version identify the reference host.
const (
	Name    = "conform-reference"
	Version = "0.1.0"
)

// A Host is one reference host session. Its zero value is not usable; call
// New.
type Host struct {
	mu       sync.Mutex
	root     string
	profile  map[string][]string
	catalog  []catalog.Descriptor
	active   []catalog.Descriptor
	initDone bool
}

// New returns a host waiting for initialize.
func New() *Host { return &Host{} }

var _ wire.Handler = (*Host)(nil)

// tool is the implementation of one canonical tool.
type tool func(ctx context.Context, h *Host, args map[string]any) (port.ToolResult, error)

// tools are the canonical tools this host backs.
var tools = map[string]tool{
	"project.detect": detectProject,
	"workspace.list": listFiles,
	"workspace.read": readFile,
}

// Handle answers one request of the host protocol.
func (h *Host) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case wire.MethodInitialize:
		return h.initialize(params)
	case wire.MethodToolsList:
		return h.toolSet()
	case wire.MethodExecute:
		return h.execute(ctx, params)
	case wire.MethodShutdown:
		return struct{}{}, nil
	}
	return nil, &wire.Error{Code: wire.ErrMethodNotFound.Code, Message: "method not found: " + method}
}

type effectProfile struct {
	Version string              `json:"version"`
	Tools   map[string][]string `json:"tools"`
}

func (h *Host) initialize(params json.RawMessage) (any, error) {
	var p wire.InitializeParams
	if err := wire.Decode(params, &p); err != nil {
		return nil, err
	}
	var descs []catalog.Descriptor
	if err := json.Unmarshal(p.Catalog, &descs); err != nil {
		return nil, &wire.Error{Code: wire.ErrInvalidParams.Code, Message: "catalog: " + err.Error()}
	}
	var prof effectProfile
	if err := json.Unmarshal(p.EffectProfile, &prof); err != nil {
		return nil, &wire.Error{Code: wire.ErrInvalidParams.Code, Message: "effectProfile: " + err.Error()}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.root = p.WorkspaceRoot
	h.profile = prof.Tools
	h.catalog = descs
	h.active = nil
	var backed []string
	for _, d := range descs {
		if _, ok := tools[d.ID]; !ok {
			continue
		}
		backed = append(backed, d.ID)
		if d.EnabledByDefault {
			h.active = append(h.active, d)
		}
	}
	sort.Strings(backed)
	h.initDone = true
	return wire.InitializeResult{
		ProtocolVersion: wire.ProtocolVersion,
		Host:            wire.HostInfo{Name: Name, Version: Version},
		Tools:           backed,
		Capabilities:    wire.HostCapabilities{},
	}, nil
}

func (h *Host) toolSet() (any, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.initDone {
		return nil, &wire.Error{Code: wire.ErrInvalidRequest.Code, Message: "tools/list before initialize"}
	}
	set := port.ToolSet{
		Definitions:        []port.ToolDefinition{},
		CanonicalToolIDs:   map[string]string{},
		EffectCapabilities: map[string][]string{},
	}
	for _, d := range h.active {
		set.Definitions = append(set.Definitions, port.ToolDefinition{
			Type:     "function",
			Function: port.FunctionSpec{Name: d.ModelName, Description: d.Description, Parameters: d.InputSchema},
		})
		set.CanonicalToolIDs[d.ModelName] = d.ID
		set.EffectCapabilities[d.ID] = h.profile[d.ID]
	}
	b, err := json.Marshal(set.Definitions)
	if err != nil {
		return nil, err
	}
	canon, err := jcs.Transform(b)
	if err != nil {
		return nil, err
	}
	set.SnapshotHash = hashBytes(canon)
	return set, nil
}

func (h *Host) execute(ctx context.Context, params json.RawMessage) (any, error) {
	var p wire.ExecuteParams
	if err := wire.Decode(params, &p); err != nil {
		return nil, err
	}
	h.mu.Lock()
	var desc *catalog.Descriptor
	for i := range h.active {
		if h.active[i].ModelName == p.ModelName {
			desc = &h.active[i]
		}
	}
	h.mu.Unlock()
	if desc == nil {
		return failure("", "NOT_FOUND", fmt.Sprintf("tool %q is not active", p.ModelName)), nil
	}
	var args map[string]any
	if err := json.Unmarshal(p.Arguments, &args); err != nil || args == nil {
		return failure(desc.ID, "INVALID_INPUT", "arguments must be a JSON object"), nil
	}
	res, err := tools[desc.ID](ctx, h, args)
	if err != nil {
		return nil, err
	}
	res.CanonicalToolID = desc.ID
	return res, nil
}

func failure(id, code, msg string) port.ToolResult {
	return port.ToolResult{
		OK: false, CanonicalToolID: id, Content: msg, Summary: msg, Trust: "trusted",
		Error: &port.ToolError{Code: code, Message: msg},
	}
}
