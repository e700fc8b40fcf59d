package doubles

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/approval"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/schema"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
)

// FullContractPermissions are the permissions the full_contract tool
// profile grants (LAB_AND_HOSTS §20.1): the host profile's core.storage,
// fs.workspace and process.execute, plus core.artifacts, network.outbound,
// preview.local and user.interaction.
func FullContractPermissions() []string {
	return []string{
		catalog.PermCoreArtifacts, catalog.PermCoreStorage, catalog.PermFSWorkspace, catalog.PermNetworkOutbound,
		catalog.PermPreviewLocal, catalog.PermProcessExecute, catalog.PermUserInteraction,
	}
}

// Error codes the doubles host answers with before a double runs
// (LAB_AND_HOSTS §20.2).
const (
	CodeUnknownTool          = "UNKNOWN_TOOL"
	CodeInvalidToolArguments = "INVALID_TOOL_ARGUMENTS"
)

// A Handler is the built-in host "doubles": another host (normally the
// reference host) with the nine optional tools served by in-memory doubles,
// which is the original full_contract tool profile. It is a jsonrpc.Handler.
// It serves that profile whatever toolProfile the harness sends: the
// profile is what this built-in host is.
//
// Handler forwards initialize to the inner host and adds the nine canonical
// IDs to the answer's tools and to its doubles field, which reports use to
// label them. It keeps its own tool registry over the tools the inner host
// backs plus the nine, filtered by the session's task mode, and answers
// tools/list and tools/restore from it. It executes the nine doubles and catalog.search
// itself (the eight lazily activated doubles can only be activated by a
// search that knows them) and forwards every other call and method to the
// inner host unchanged.
//
// For the calls it executes, Handler is the tool executor of
// LAB_AND_HOSTS §20.2: an inactive name is UNKNOWN_TOOL, arguments that
// break the input schema are INVALID_TOOL_ARGUMENTS, a with_key tool
// replays its result for a repeated idempotency key, the approval policy
// of the session's approval profile decides before dispatch (the protocol
// has no approval request yet, so a call that needs approval is denied
// with DENY_APPROVAL_UNAVAILABLE), and an output that breaks the output
// schema is an unknown outcome (wire.ErrUnknownOutcome).
type Handler struct {
	inner jsonrpc.Handler
	tools *Tools

	mu      sync.Mutex
	reg     *catalog.Registry             // nil until initialize succeeds
	byModel map[string]catalog.Descriptor // the session's catalog
	policy  *approval.Policy
	replay  map[string]port.ToolResult // idempotency key → result
}

var _ jsonrpc.Handler = (*Handler)(nil)

// NewHandler returns the doubles host over inner, with fresh doubles.
func NewHandler(inner jsonrpc.Handler) *Handler {
	return &Handler{inner: inner, tools: New()}
}

// Handle answers one request of the host protocol.
func (h *Handler) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case wire.MethodInitialize:
		return h.initialize(ctx, params)
	case wire.MethodToolsList:
		if set, ok, err := h.toolSet(); ok {
			return set, err
		}
	case wire.MethodToolsRestore:
		if set, ok, err := h.restore(params); ok {
			return set, err
		}
	case wire.MethodExecute:
		return h.execute(ctx, params)
	}
	return h.inner.Handle(ctx, method, params)
}

func (h *Handler) initialize(ctx context.Context, params json.RawMessage) (any, error) {
	res, err := h.inner.Handle(ctx, wire.MethodInitialize, params)
	if err != nil {
		return nil, err
	}
	var p wire.InitializeParams
	if err := kit.DecodeParams(wire.MethodInitialize, params, &p); err != nil {
		return nil, err
	}
	descs := p.Catalog.Tools
	// The inner host's answer is kept as generic JSON so that fields this
	// package does not know survive.
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var answer map[string]any
	if err := json.Unmarshal(b, &answer); err != nil {
		return nil, fmt.Errorf("doubles: inner host's initialize answer: %w", err)
	}
	backed := stringList(answer["tools"])
	var doubled []string
	byModel := map[string]catalog.Descriptor{}
	for _, d := range descs {
		byModel[d.ModelName] = d
		if IsDouble(d.ID) {
			doubled = append(doubled, d.ID)
		}
	}
	sort.Strings(doubled)
	// catalog.search is the handler's own: only a search that knows the
	// doubles can activate them.
	available := append(slices.Clone(backed), doubled...)
	available = append(available, "catalog.search")
	mode := p.Mode
	if mode == "" {
		mode = port.ModeAuto
	}
	snap, err := catalog.NewSnapshot(catalog.Options{
		Descriptors: descs, AvailableToolIDs: available, GrantedPermissions: FullContractPermissions(), Mode: mode,
	})
	if err != nil {
		return nil, &wire.Error{Code: wire.ErrInvalidParams.Code, Message: "catalog: " + err.Error()}
	}
	reg, err := catalog.NewRegistry(snap)
	if err != nil {
		return nil, &wire.Error{Code: wire.ErrInvalidParams.Code, Message: "catalog: " + err.Error()}
	}
	profileName := approval.Profile(p.ApprovalProfile)
	if profileName == "" {
		profileName = approval.Balanced
	}
	opts := []approval.Option{approval.WithPermissions(FullContractPermissions()...), approval.WithApprover(approval.ApproverFunc(askHarness))}
	if p.ApprovalTimeoutMs > 0 {
		opts = append(opts, approval.WithTimeout(int64(p.ApprovalTimeoutMs)))
	}
	policy, err := approval.NewPolicy(profileName, opts...)
	if err != nil {
		return nil, &wire.Error{Code: wire.ErrInvalidParams.Code, Message: "approvalProfile: " + err.Error()}
	}
	all := append(slices.Clone(backed), doubled...)
	all = append(all, "catalog.search")
	sort.Strings(all)
	answer["tools"] = slices.Compact(all)
	answer["doubles"] = doubled

	h.mu.Lock()
	defer h.mu.Unlock()
	h.reg, h.byModel, h.policy = reg, byModel, policy
	h.replay = map[string]port.ToolResult{}
	return answer, nil
}

func stringList(v any) []string {
	items, _ := v.([]any)
	out := make([]string, 0, len(items))
	for _, it := range items {
		if s, ok := it.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// toolSet answers tools/list from the registry; ok is false before
// initialize, when the inner host answers instead.
func (h *Handler) toolSet() (set port.ToolSet, ok bool, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.reg == nil {
		return set, false, nil
	}
	active := h.reg.ActiveDescriptors()
	meta, err := effects.NewMetadata(effects.RefsOf(active))
	if err != nil {
		return set, true, err
	}
	defs := h.reg.Definitions()
	if defs == nil {
		defs = []port.ToolDefinition{}
	}
	return port.ToolSet{
		Definitions: defs, CanonicalToolIDs: meta.CanonicalToolIDs,
		EffectCapabilities: meta.EffectCapabilities, SnapshotHash: h.reg.ActiveHash(),
	}, true, nil
}

// restore answers tools/restore from the registry (LAB_AND_HOSTS §20.1);
// ok is false before initialize. The inner host is not asked: every tool
// it backs outside the doubles is a bootstrap tool, so its own active set
// never changes.
func (h *Handler) restore(params json.RawMessage) (set port.ToolSet, ok bool, err error) {
	var p wire.RestoreParams
	if err := kit.DecodeParams(wire.MethodToolsRestore, params, &p); err != nil {
		return set, true, err
	}
	h.mu.Lock()
	reg := h.reg
	h.mu.Unlock()
	if reg == nil {
		return set, false, nil
	}
	for _, name := range p.Names {
		if !slices.ContainsFunc(reg.Snapshot().Descriptors, func(d catalog.Descriptor) bool { return d.ModelName == name }) {
			return set, true, wire.PortFailure(&port.Error{Code: port.CodeConflict,
				Message: fmt.Sprintf("Checkpoint references unavailable tool '%s'.", name)})
		}
	}
	if err := reg.Restore(p.Names, p.SnapshotHash); err != nil {
		return set, true, wire.PortFailure(&port.Error{Code: port.CodeConflict,
			Message: "Checkpoint tool snapshot mismatch: " + err.Error()})
	}
	return h.toolSet()
}

// owns reports whether the handler executes the tool itself.
func owns(id string) bool { return IsDouble(id) || id == "catalog.search" }

func (h *Handler) execute(ctx context.Context, params json.RawMessage) (any, error) {
	var p wire.ExecuteParams
	if err := kit.DecodeParams(wire.MethodExecute, params, &p); err != nil {
		return nil, err
	}
	h.mu.Lock()
	reg, policy := h.reg, h.policy
	d, known := h.byModel[p.ModelName]
	h.mu.Unlock()
	if reg == nil || !known || !owns(d.ID) {
		return h.inner.Handle(ctx, wire.MethodExecute, params)
	}
	fail := func(id, code, msg string) port.ToolResult {
		r := failure(id, code, msg)
		r.Content = FailureContent(*r.Error, p.CallID)
		return r
	}
	if _, active := reg.ResolveModelName(p.ModelName); !active {
		return fail(p.ModelName, CodeUnknownTool, "Tool '"+p.ModelName+"' is not active in this turn."), nil
	}
	var args map[string]any
	if err := json.Unmarshal(p.Arguments, &args); err != nil || args == nil {
		return fail(d.ID, CodeInvalidToolArguments, "Tool arguments must be a JSON object."), nil
	}
	if err := schema.Validate(d.InputSchema, args); err != nil {
		return fail(d.ID, CodeInvalidToolArguments, violations(err)), nil
	}
	key := ""
	if d.Idempotency == catalog.IdempotencyWithKey && p.IdempotencyKey != "" {
		key = d.ID + "\x00" + p.IdempotencyKey
		h.mu.Lock()
		r, ok := h.replay[key]
		h.mu.Unlock()
		if ok {
			return r, nil
		}
	}
	decision := policy.Decide(ctx, approval.Call{Tool: d, Arguments: args, Context: port.ToolContext{
		RunID: p.Context.RunID, TaskID: p.Context.TaskID, Mode: p.Context.Mode,
		ToolCallID: p.CallID, IdempotencyKey: p.IdempotencyKey, TimeoutMs: p.TimeoutMs,
	}})
	if !decision.Allowed {
		r := fail(d.ID, strings.ToUpper(string(decision.Code)), decision.Reason)
		r.Effects, r.EffectsAuthority = &port.Effects{Approval: effects.ApprovalDenied}, effects.AuthorityHost
		return r, nil
	}
	cctx := ctx
	if p.TimeoutMs > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, time.Duration(p.TimeoutMs)*time.Millisecond)
		defer cancel()
	}
	var r port.ToolResult
	var err error
	if d.ID == "catalog.search" {
		r, err = searchTools(reg, d, args)
	} else {
		r, err = h.tools.Execute(cctx, d.ID, args)
	}
	if err != nil {
		return nil, wire.UnknownOutcomeError(d.ID, err.Error())
	}
	if r.OK {
		var out any
		if err := json.Unmarshal([]byte(r.Content), &out); err != nil {
			return nil, wire.UnknownOutcomeError(d.ID, "output is not JSON: "+err.Error())
		}
		if err := schema.Validate(d.OutputSchema, out); err != nil {
			return nil, wire.UnknownOutcomeError(d.ID, "output breaks its schema: "+err.Error())
		}
		if decision.Code == approval.ApprovedByHost {
			r.Effects.Approval = effects.ApprovalGranted
		}
	} else {
		r.Content = FailureContent(*r.Error, p.CallID)
	}
	if key != "" {
		h.mu.Lock()
		h.replay[key] = r
		h.mu.Unlock()
	}
	return r, nil
}

// violations joins the schema violations of err with spaces.
func violations(err error) string {
	var ve *schema.ValueError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	parts := make([]string, len(ve.Violations))
	for i, v := range ve.Violations {
		parts[i] = v.String() + "."
	}
	return strings.Join(parts, " ")
}

// searchTools is catalog.search over the handler's registry (CONTRACTS
// §8.4): it activates the page of matches it returns.
func searchTools(reg *catalog.Registry, d catalog.Descriptor, args map[string]any) (port.ToolResult, error) {
	b, err := json.Marshal(args)
	if err != nil {
		return port.ToolResult{}, err
	}
	var req catalog.SearchRequest
	if err := json.Unmarshal(b, &req); err != nil {
		return failure(d.ID, CodeInvalidToolArguments, err.Error()), nil
	}
	res := reg.Search(req)
	content, err := json.Marshal(res)
	if err != nil {
		return port.ToolResult{}, err
	}
	tf := tailFraction
	return port.ToolResult{
		OK: true, CanonicalToolID: d.ID, Content: string(content),
		Summary: fmt.Sprintf("Activated %d matching tool(s).", len(res.Activated)), Trust: "trusted",
		OutputLimits:     &port.OutputLimits{MaxBytes: d.MaxOutputBytes, MaxTokens: d.MaxOutputTokens, TailFraction: &tf},
		EffectsAuthority: effects.AuthorityHost,
		Effects:          &port.Effects{Approval: effects.ApprovalNotRequired, StateVersion: res.ActiveHash},
	}, nil
}

// askHarness is the approver of the doubles: it asks the harness over the
// connection of the call being handled.
func askHarness(ctx context.Context, req approval.Request, tc port.ToolContext) (approval.HostDecision, error) {
	args, err := json.Marshal(req.ArgumentsValue)
	if err != nil {
		return approval.HostDecision{}, err
	}
	d, err := kit.RequestApproval(ctx, wire.ApprovalParams{
		RequestID: req.RequestID, CanonicalToolID: req.Tool.ID, ModelName: req.Tool.ModelName,
		Arguments: args, Risk: req.Tool.Risk, Mutability: req.Tool.Mutability,
		ApprovalProfile: string(req.ApprovalProfile), Reason: req.Reason, SuggestedScope: string(req.SuggestedScope),
		TimeoutMs: tc.TimeoutMs,
		Context:   wire.ApprovalContext{RunID: tc.RunID, TaskID: tc.TaskID, ToolCallID: tc.ToolCallID, Mode: tc.Mode},
	})
	if err != nil {
		return approval.HostDecision{}, err
	}
	return approval.HostDecision{Approved: d.Approved, DecidedAt: Epoch, Reason: d.Reason, Scope: approval.Scope(d.Scope)}, nil
}
