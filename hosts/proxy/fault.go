package proxy

// A Fault is one injected fault, as the transcript records it. It holds no
// time or process values.
type Fault struct {
	// Seq numbers faults from 1 in the order they were applied.
	Seq int `json:"seq"`
	// Rule is the index of the rule that fired.
	Rule int `json:"rule"`
	// Action is the rule's action.
	Action string `json:"action"`
	// Method is the method of the request the fault hit.
	Method string `json:"method"`
	// RequestID is the JSON text of the request's id.
	RequestID string `json:"requestId"`
	// ModelName and CanonicalToolID identify the tool of a tool/execute.
	ModelName       string `json:"modelName,omitempty"`
	CanonicalToolID string `json:"canonicalToolId,omitempty"`
	// Detail says what was done, in words.
	Detail string `json:"detail"`
}
