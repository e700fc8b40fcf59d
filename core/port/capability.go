package port

import (
	"context"

	"github.com/galaxy-stack/conform/core/clone"
)

// Capability states (CONTRACTS §13.3).
const (
	CapabilitySupported   = "supported"
	CapabilityUnsupported = "unsupported"
	CapabilityUnknown     = "unknown"
)

// Thinking capabilities (CONTRACTS §13.3).
const (
	ThinkingNone     = "none"
	ThinkingOptional = "optional"
	ThinkingRequired = "required"
	ThinkingUnknown  = "unknown"
)

// Capability evidence sources (CONTRACTS §13.3).
const (
	EvidenceProviderAPI    = "provider_api"
	EvidenceRuntimeProbe   = "runtime_probe"
	EvidenceCatalog        = "catalog"
	EvidenceStaticFallback = "static_fallback"
)

// CapabilityEvidence records where a capability snapshot came from.
// ObservedAt is an ISO-8601 timestamp.
type CapabilityEvidence struct {
	ObservedAt string `json:"observedAt"`
	Source     string `json:"source"`
	Verified   bool   `json:"verified"`
}

// InputCapabilities are the input modalities of a model, each a capability
// state.
type InputCapabilities struct {
	Audio string `json:"audio"`
	Image string `json:"image"`
	Text  string `json:"text"`
	Video string `json:"video"`
}

// OutputCapabilities are the output modalities of a model, each a
// capability state.
type OutputCapabilities struct {
	Image string `json:"image"`
	Text  string `json:"text"`
}

// ModelCapabilities is a model's capability snapshot (CONTRACTS §13.3).
// The capability fields hold a capability state; Thinking holds a thinking
// capability. Pointer and slice fields are optional and omitted when nil.
type ModelCapabilities struct {
	Evidence                []CapabilityEvidence `json:"evidence"`
	Identity                ModelIdentity        `json:"identity"`
	Input                   InputCapabilities    `json:"input"`
	Output                  OutputCapabilities   `json:"output"`
	ParallelToolCalling     string               `json:"parallelToolCalling"`
	PreserveThinking        string               `json:"preserveThinking"`
	Streaming               string               `json:"streaming"`
	StructuredOutput        string               `json:"structuredOutput"`
	TokenCounting           string               `json:"tokenCounting"`
	ToolCalling             string               `json:"toolCalling"`
	Thinking                string               `json:"thinking"`
	ContextWindow           *int                 `json:"contextWindow,omitempty"`
	MaxImages               *int                 `json:"maxImages,omitempty"`
	MaxOutputTokens         *int                 `json:"maxOutputTokens,omitempty"`
	PromptCache             string               `json:"promptCache,omitempty"`
	SupportedImageMimeTypes []string             `json:"supportedImageMimeTypes,omitempty"`
	SystemPromptUpdate      string               `json:"systemPromptUpdate,omitempty"`
}

// Clone returns a deep copy of c that shares no memory with it.
func (c ModelCapabilities) Clone() ModelCapabilities {
	out := c
	if c.Evidence != nil {
		out.Evidence = append([]CapabilityEvidence(nil), c.Evidence...)
	}
	out.ContextWindow = clone.Ptr(c.ContextWindow)
	out.MaxImages = clone.Ptr(c.MaxImages)
	out.MaxOutputTokens = clone.Ptr(c.MaxOutputTokens)
	if c.SupportedImageMimeTypes != nil {
		out.SupportedImageMimeTypes = append([]string(nil), c.SupportedImageMimeTypes...)
	}
	return out
}

// CapabilityReporter is implemented by models that report their capability
// snapshot (the adapter's capabilities member, CONTRACTS §13.2). A canceled
// context yields a *Error with code CANCELED.
type CapabilityReporter interface {
	Capabilities(ctx context.Context) (ModelCapabilities, error)
}
