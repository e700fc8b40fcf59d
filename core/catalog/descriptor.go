package catalog

import (
	"slices"

	"github.com/galaxy-stack/conform/core/clone"
)

// Descriptor describes one tool (CONTRACTS §4.2). JSON field names are the
// original's; schemas are plain JSON values in the supported subset
// (CONTRACTS §5).
type Descriptor struct {
	ID                   string         `json:"id"`
	ModelName            string         `json:"modelName"`
	Version              string         `json:"version"`
	Title                string         `json:"title"`
	Description          string         `json:"description"`
	Category             string         `json:"category"`
	Transport            string         `json:"transport"`
	InputSchema          map[string]any `json:"inputSchema"`
	OutputSchema         map[string]any `json:"outputSchema"`
	Permissions          []string       `json:"permissions"`
	Risk                 string         `json:"risk"`
	Mutability           string         `json:"mutability"`
	Idempotency          string         `json:"idempotency"`
	TimeoutMs            int            `json:"timeoutMs"`
	MaxOutputBytes       int            `json:"maxOutputBytes"`
	MaxOutputTokens      int            `json:"maxOutputTokens"`
	SupportsPagination   bool           `json:"supportsPagination"`
	SupportsCancellation bool           `json:"supportsCancellation"`
	EnabledByDefault     bool           `json:"enabledByDefault"`
	Modalities           Modalities     `json:"modalities"`
	Source               Source         `json:"source"`
}

// Modalities says what a tool accepts and produces.
type Modalities struct {
	Accepts                   []string `json:"accepts"`
	Produces                  []string `json:"produces"`
	RequiredModelCapabilities []string `json:"requiredModelCapabilities,omitempty"`
}

// Source says who owns a tool.
type Source struct {
	Owner       string `json:"owner"`
	ExtensionID string `json:"extensionId,omitempty"`
	ServerID    string `json:"serverId,omitempty"`
}

// Clone returns a deep copy of d that shares no memory with it. Nil slices
// stay nil and empty ones stay empty, so the JSON form is unchanged.
func (d Descriptor) Clone() Descriptor {
	out := d
	out.InputSchema = clone.Object(d.InputSchema)
	out.OutputSchema = clone.Object(d.OutputSchema)
	out.Permissions = slices.Clone(d.Permissions)
	out.Modalities = Modalities{
		Accepts:                   slices.Clone(d.Modalities.Accepts),
		Produces:                  slices.Clone(d.Modalities.Produces),
		RequiredModelCapabilities: slices.Clone(d.Modalities.RequiredModelCapabilities),
	}
	return out
}
