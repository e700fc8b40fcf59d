package run

import (
	"encoding/json"

	"github.com/galaxy-stack/conform/core/canon"
)

func jsonNumber(v float64) (string, error) {
	b, err := canon.Marshal(v)
	return string(b), err
}

// stableJSON is the canonical JSON of v as text; v must be marshalable.
func stableJSON(v any) string {
	b, err := canon.Marshal(v)
	if err != nil {
		raw, _ := json.Marshal(v)
		return string(raw)
	}
	return string(b)
}

// runtimeHash is sha256 over the canonical JSON of v.
func runtimeHash(v any) (string, error) { return canon.Hash(v) }
