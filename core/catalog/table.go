package catalog

import (
	"sort"

	"github.com/galaxy-stack/conform/core/canon"
)

// Activation classes of a tool (CONTRACTS §6.2).
const (
	ActivationBootstrap = "bootstrap" // enabledByDefault: active in the first turn
	ActivationLazy      = "lazy"      // activated only through catalog.search
)

// A Row summarises one tool as the CONTRACTS §6.2 table does, plus the
// §6.3 limits; it is what `conform tools --json` prints.
type Row struct {
	ID              string   `json:"id"`
	ModelName       string   `json:"modelName"`
	Title           string   `json:"title"`
	Category        string   `json:"category"`
	Mutability      string   `json:"mutability"`
	Risk            string   `json:"risk"`
	Transport       string   `json:"transport"`
	Activation      string   `json:"activation"`
	Idempotency     string   `json:"idempotency"`
	Permissions     []string `json:"permissions"`
	TimeoutMs       int      `json:"timeoutMs"`
	MaxOutputBytes  int      `json:"maxOutputBytes"`
	MaxOutputTokens int      `json:"maxOutputTokens"`
	Pagination      bool     `json:"pagination"`
	Cancellation    bool     `json:"cancellation"`
	// RequiredInputs are the input schema's required properties in declared
	// order; OptionalInputs the other properties, sorted.
	RequiredInputs []string `json:"requiredInputs"`
	OptionalInputs []string `json:"optionalInputs"`
}

// Table returns one [Row] per core tool in catalog order.
func Table() []Row {
	return TableOf(core())
}

// TableOf returns one [Row] per descriptor, in the given order.
func TableOf(descriptors []Descriptor) []Row {
	rows := make([]Row, 0, len(descriptors))
	for _, d := range descriptors {
		activation := ActivationLazy
		if d.EnabledByDefault {
			activation = ActivationBootstrap
		}
		req, opt := inputFields(d.InputSchema)
		rows = append(rows, Row{
			ID: d.ID, ModelName: d.ModelName, Title: d.Title, Category: d.Category, Mutability: d.Mutability,
			Risk: d.Risk, Transport: d.Transport, Activation: activation, Idempotency: d.Idempotency,
			Permissions: append([]string{}, d.Permissions...), TimeoutMs: d.TimeoutMs,
			MaxOutputBytes: d.MaxOutputBytes, MaxOutputTokens: d.MaxOutputTokens,
			Pagination: d.SupportsPagination, Cancellation: d.SupportsCancellation,
			RequiredInputs: req, OptionalInputs: opt,
		})
	}
	return rows
}

func inputFields(s map[string]any) (required, optional []string) {
	required, optional = []string{}, []string{}
	isRequired := map[string]bool{}
	if r, ok := s["required"].([]any); ok {
		for _, x := range r {
			if name, ok := x.(string); ok {
				required = append(required, name)
				isRequired[name] = true
			}
		}
	}
	props, _ := s["properties"].(map[string]any)
	for name := range props {
		if !isRequired[name] {
			optional = append(optional, name)
		}
	}
	sort.Slice(optional, func(i, j int) bool { return canon.CompareText(optional[i], optional[j]) < 0 })
	return required, optional
}
