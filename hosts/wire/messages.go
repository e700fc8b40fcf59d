package wire

import "encoding/json"

// ProtocolVersion is the version of the host protocol this package speaks.
const ProtocolVersion = "0"

// Method names of the host protocol.
const (
	MethodInitialize = "initialize"
	MethodToolsList  = "tools/list"
	MethodExecute    = "tool/execute"
	MethodShutdown   = "shutdown"
)

// Message is one JSON-RPC 2.0 message as it appears on the wire. A request
// has Method and ID; a notification has Method and no ID; a response has ID
// and either Result or Error.
type Message struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *Error           `json:"error,omitempty"`
}

// IsRequest reports whether m is a request or a notification.
func (m *Message) IsRequest() bool { return m.Method != "" }

// InitializeParams opens a session: the workspace and store the host must
// use, the tool catalog and effect profile, and the run's policy settings.
type InitializeParams struct {
	ProtocolVersion string          `json:"protocolVersion"`
	WorkspaceRoot   string          `json:"workspaceRoot"`
	StoreDir        string          `json:"storeDir"`
	Catalog         json.RawMessage `json:"catalog"`
	EffectProfile   json.RawMessage `json:"effectProfile"`
	Mode            string          `json:"mode"`
	ApprovalProfile string          `json:"approvalProfile"`
	Containment     string          `json:"containment"`
	ToolProfile     string          `json:"toolProfile"`
}

// InitializeResult is the host's answer to initialize.
type InitializeResult struct {
	ProtocolVersion    string           `json:"protocolVersion"`
	Host               HostInfo         `json:"host"`
	Tools              []string         `json:"tools"`
	CommandEnvironment json.RawMessage  `json:"commandEnvironment,omitempty"`
	Capabilities       HostCapabilities `json:"capabilities"`
	Doubles            []string         `json:"doubles,omitempty"`
}

// HostInfo names a host implementation.
type HostInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// HostCapabilities says which harness-facing services a host offers.
type HostCapabilities struct {
	Store bool `json:"store"`
	Trace bool `json:"trace"`
	Spill bool `json:"spill"`
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
