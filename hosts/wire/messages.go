package wire

import (
	"encoding/json"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/projectformat"
	"github.com/galaxy-stack/conform/core/prompt"
)

// ProtocolVersion is the version of the host protocol this package speaks.
const ProtocolVersion = "1"

// Method names of the host protocol. Every method but approval/request is
// sent by the harness to the host; approval/request is sent by the host to
// the harness. $/cancelRequest is a notification either side may send.
const (
	MethodInitialize   = "initialize"
	MethodToolsList    = "tools/list"
	MethodToolsRestore = "tools/restore"
	MethodExecute      = "tool/execute"
	MethodFingerprint  = "workspace/fingerprint"
	MethodStorePut     = "store/put"
	MethodStoreGet     = "store/get"
	MethodStoreList    = "store/list"
	MethodTraceAppend  = "trace/append"
	MethodTraceFlush   = "trace/flush"
	MethodTraceList    = "trace/list"
	MethodShutdown     = "shutdown"
	MethodApproval     = "approval/request"
	// MethodJobObserve returns the durable job of an extension call.
	MethodJobObserve = "job/observe"
	// MethodCancel is the notification that cancels an in-flight request.
	MethodCancel = "$/cancelRequest"
)

// Methods lists every request method of the protocol in the order of
// PROTOCOL.md.
func Methods() []string {
	return []string{
		MethodInitialize, MethodToolsList, MethodToolsRestore, MethodExecute,
		MethodFingerprint, MethodStorePut, MethodStoreGet, MethodStoreList,
		MethodTraceAppend, MethodTraceFlush, MethodTraceList, MethodShutdown,
		MethodApproval, MethodJobObserve,
	}
}

// Containment policies a session may ask for (LAB §13.1).
const (
	ContainmentRequired   = "required"
	ContainmentBestEffort = "best_effort"
)

// Tool profiles (LAB §20.1).
const (
	ToolProfileHost         = "host"
	ToolProfileFullContract = "full_contract"
)

// InitializeParams opens a session: the workspace and store the host must
// use, the tool catalog and effect profile, and the run's policy settings.
type InitializeParams struct {
	ProtocolVersion string              `json:"protocolVersion"`
	WorkspaceRoot   string              `json:"workspaceRoot"`
	StoreDir        string              `json:"storeDir"`
	Catalog         catalog.HostCatalog `json:"catalog"`
	EffectProfile   EffectProfile       `json:"effectProfile"`
	Mode            string              `json:"mode"`
	ApprovalProfile string              `json:"approvalProfile"`
	Containment     string              `json:"containment"`
	ToolProfile     string              `json:"toolProfile"`
	// ApprovalTimeoutMs bounds how long the host waits for an answer to
	// approval/request; 0 means the host's default (30000).
	ApprovalTimeoutMs int `json:"approvalTimeoutMs,omitempty"`
	// ForbidContainmentBackends makes the host behave as if no containment
	// backend existed (DECISIONS 65).
	ForbidContainmentBackends bool `json:"forbidContainmentBackends,omitempty"`
	// Research, if set, adjusts the public-research tools for this
	// session; nil (the default) changes nothing.
	Research *ResearchParams `json:"research,omitempty"`
	// Extensions are the extension capability flags the harness offers
	// (catalog.ExtensionFlags); empty means none, and the host then
	// offers only the core tools.
	Extensions []string `json:"extensions,omitempty"`
}

// ResearchParams adjust the public-research tools for one session.
type ResearchParams struct {
	// AllowLoopback are loopback sources ("127.0.0.1:PORT", "[::1]:PORT")
	// research.fetch may read in this session although they are not
	// public: a harness-served source. Only these exact addresses are
	// allowed; every other loopback, private or reserved host stays
	// refused. Empty by default.
	AllowLoopback []string `json:"allowLoopback,omitempty"`
}

// EffectProfile is the versioned effect profile (CONTRACTS §7.3): the most
// each canonical tool may attest.
type EffectProfile struct {
	Version string              `json:"version"`
	Tools   map[string][]string `json:"tools"`
}

// InitializeResult is the host's answer to initialize.
type InitializeResult struct {
	ProtocolVersion string   `json:"protocolVersion"`
	Host            HostInfo `json:"host"`
	Tools           []string `json:"tools"`
	// CommandEnvironment is the host environment a host publishes
	// (CONTRACTS §9.2 hostEnvironment, LAB §12): the one interpreter that
	// runs every command string. It is exactly the prompt's
	// hostEnvironment, which the harness passes to the core unchanged.
	CommandEnvironment *prompt.HostEnvironment `json:"commandEnvironment,omitempty"`
	Containment        *Containment            `json:"containment,omitempty"`
	Capabilities       HostCapabilities        `json:"capabilities"`
	Doubles            []string                `json:"doubles,omitempty"`
	// Extensions are the offered extension capability flags the host
	// advertises; an extension tool is callable only when its flag is
	// both offered and advertised.
	Extensions []string `json:"extensions,omitempty"`
	// PromptInput is the host's structured prompt configuration (CONTRACTS
	// §9.1, AiCoderPromptConfiguration), kept exactly as the host sent it:
	// the harness merges its members over its own defaults into the run
	// request's "prompt" object and the core judges the result with its
	// own rules, so a free-form prompt field or an unknown key is refused
	// with the core's message before the first model request. Absent
	// means the host supplies none and the harness's defaults are used.
	PromptInput json.RawMessage `json:"promptInput,omitempty"`
}

// HostInfo names a host implementation.
type HostInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// HostCapabilities says which harness-facing services a host offers: the
// checkpoint store (store/*), the durable trace (trace/*), spill files for
// complete command output, and the workspace fingerprint.
type HostCapabilities struct {
	Store       bool `json:"store"`
	Trace       bool `json:"trace"`
	Spill       bool `json:"spill"`
	Fingerprint bool `json:"fingerprint"`
}

// Containment is the command-containment status a host publishes and
// enforces (LAB §13.3). Verified is true only when Active.
type Containment struct {
	Active           bool    `json:"active"`
	Backend          string  `json:"backend"`
	Executable       *string `json:"executable"`
	FilesystemReads  string  `json:"filesystemReads"`
	FilesystemWrites string  `json:"filesystemWrites"`
	Mode             string  `json:"mode"`
	Network          string  `json:"network"`
	Reason           *string `json:"reason"`
	State            string  `json:"state"`
	Verified         bool    `json:"verified"`
}

// RestoreParams asks the host to restore a checkpointed active tool set:
// the model-facing names to activate and the snapshot hash the result must
// have.
type RestoreParams struct {
	Names        []string `json:"names"`
	SnapshotHash string   `json:"snapshotHash"`
}

// ExecuteParams asks the host to run one tool call.
type ExecuteParams struct {
	CallID         string          `json:"callId"`
	ModelName      string          `json:"modelName"`
	Arguments      json.RawMessage `json:"arguments"`
	IdempotencyKey string          `json:"idempotencyKey"`
	TimeoutMs      int             `json:"timeoutMs"`
	Context        RunContext      `json:"context"`
}

// RunContext is the run a call belongs to.
type RunContext struct {
	RunID  string `json:"runId"`
	TaskID string `json:"taskId"`
	Mode   string `json:"mode"`
}

// Fingerprint actions.
const (
	FingerprintCapture = "capture"
	FingerprintVerify  = "verify"
)

// FingerprintParams asks for the relevant-workspace fingerprint
// (CONTRACTS §13.8): capture binds ActiveFiles and DirtyStateSummary;
// verify re-reads the workspace and compares with State.
type FingerprintParams struct {
	Action            string          `json:"action"`
	ActiveFiles       []ActiveFile    `json:"activeFiles,omitzero"`
	DirtyStateSummary *string         `json:"dirtyStateSummary,omitempty"`
	State             *WorkspaceState `json:"state,omitempty"`
}

// ActiveFile is a task-relevant path the fingerprint binds: its kind and
// content hash as the run last observed or wrote them. It is
// [port.ActiveFile], re-exported here because this package is the
// protocol's public face: a host author finds every shape a message
// carries in wire.
type ActiveFile = port.ActiveFile

// WorkspaceState is a captured fingerprint with the inputs it binds. It is
// [port.WorkspaceState], re-exported for host authors as ActiveFile is.
type WorkspaceState = port.WorkspaceState

// FingerprintResult answers workspace/fingerprint. A capture fills State
// and Consistency; a verify fills CurrentFingerprint and Matches.
type FingerprintResult struct {
	Consistency        string          `json:"consistency,omitempty"`
	State              *WorkspaceState `json:"state,omitempty"`
	CurrentFingerprint string          `json:"currentFingerprint,omitempty"`
	Matches            *bool           `json:"matches,omitempty"`
}

// ConsistencySerialized is the only fingerprint consistency a host may
// claim (CONTRACTS §13.8).
const ConsistencySerialized = "serialized_workspace"

// Store document kinds.
const (
	KindCheckpoint  = "checkpoint"
	KindFinalReport = "final_report"
)

// StorePutParams stores one document of a run durably.
type StorePutParams struct {
	RunID    string          `json:"runId"`
	Kind     string          `json:"kind"`
	Document json.RawMessage `json:"document"`
}

// StorePutResult acknowledges a durable put.
type StorePutResult struct {
	Sequence    int    `json:"sequence"`
	ArtifactRef string `json:"artifactRef"`
}

// StoreGetParams asks for the latest document of one kind of a run.
type StoreGetParams struct {
	RunID string `json:"runId"`
	Kind  string `json:"kind"`
}

// StoreGetResult holds the latest document, or a JSON null when there is
// none.
type StoreGetResult struct {
	Document json.RawMessage `json:"document"`
}

// StoreListParams asks for every document of one kind of a run.
type StoreListParams struct {
	RunID string `json:"runId"`
	Kind  string `json:"kind"`
}

// StoreListResult lists documents in the order they were put.
type StoreListResult struct {
	Entries []StoreEntry `json:"entries"`
}

// StoreEntry is one stored document.
type StoreEntry struct {
	Sequence    int             `json:"sequence"`
	ArtifactRef string          `json:"artifactRef"`
	Document    json.RawMessage `json:"document"`
}

// TraceAppendParams appends one trace event (CONTRACTS §13.9).
type TraceAppendParams struct {
	Event TraceEvent `json:"event"`
}

// TraceEvent is one trace record (CONTRACTS §13.9). It is
// [port.TraceEvent], re-exported for host authors as ActiveFile is.
type TraceEvent = port.TraceEvent

// TraceFlushResult acknowledges a durable flush: every accepted event is on
// stable storage.
type TraceFlushResult struct {
	DurableEvents int `json:"durableEvents"`
}

// TraceListParams asks for the durable trace of one run.
type TraceListParams struct {
	RunID string `json:"runId"`
}

// TraceListResult lists a run's durable events in append order.
type TraceListResult struct {
	Events []TraceEvent `json:"events"`
}

// ApprovalParams is the host's approval/request: one call that needs a
// decision (CONTRACTS §10.3).
type ApprovalParams struct {
	RequestID       string          `json:"requestId"`
	CanonicalToolID string          `json:"canonicalToolId"`
	ModelName       string          `json:"modelName"`
	Arguments       json.RawMessage `json:"arguments"`
	Risk            string          `json:"risk"`
	Mutability      string          `json:"mutability"`
	ApprovalProfile string          `json:"approvalProfile"`
	Reason          string          `json:"reason"`
	SuggestedScope  string          `json:"suggestedScope"`
	TimeoutMs       int             `json:"timeoutMs"`
	Context         ApprovalContext `json:"context"`
}

// ApprovalContext correlates an approval request with its call.
type ApprovalContext struct {
	RunID      string `json:"runId"`
	TaskID     string `json:"taskId"`
	ToolCallID string `json:"toolCallId"`
	Mode       string `json:"mode"`
}

// ApprovalDecision is the harness's answer to approval/request.
type ApprovalDecision struct {
	Approved bool   `json:"approved"`
	Scope    string `json:"scope"`
	Reason   string `json:"reason,omitempty"`
}

// UnknownOutcome is the data of an ErrUnknownOutcome error: the call's
// side effects may or may not have happened (DECISIONS 66).
type UnknownOutcome struct {
	CanonicalToolID string `json:"canonicalToolId"`
	Reason          string `json:"reason"`
}

// JobObserveParams asks for the durable job of one extension call, by the
// callId it was executed with.
type JobObserveParams struct {
	CallID string `json:"callId"`
}

// JobObserveResult holds the job record, or a JSON null when the host
// has no job for the call.
type JobObserveResult struct {
	Job *projectformat.Job `json:"job"`
}
