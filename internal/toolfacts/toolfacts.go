// Package toolfacts holds the catalog facts of CONTRACTS §6.2–§6.3 that the
// effect profile and the approval policy depend on, written by hand from
// the fact sheet. Tests compare the built catalog and policies with them,
// so a change to the catalog that the sheet does not make is caught.
package toolfacts

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed tools.json
var data []byte

// A Fact is one tool's line.
type Fact struct {
	ID               string   `json:"id"`
	ModelName        string   `json:"modelName"`
	Mutability       string   `json:"mutability"`
	Risk             string   `json:"risk"`
	Transport        string   `json:"transport"`
	EnabledByDefault bool     `json:"enabledByDefault"`
	Permissions      []string `json:"permissions"`
}

// All returns the 21 facts in catalog order.
func All() []Fact {
	var facts []Fact
	if err := json.Unmarshal(data, &facts); err != nil {
		panic(fmt.Sprintf("toolfacts: tools.json: %v", err))
	}
	return facts
}
