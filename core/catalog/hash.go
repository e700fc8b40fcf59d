package catalog

import (
	"fmt"

	"github.com/galaxy-stack/conform/core/canon"
)

// hashOf is the registry hash (CONTRACTS §1.5, §8): SHA-256 over the
// canonical JSON of v, written "sha256:<hex>" (DESIGN "Hashes"). The values
// hashed here are built by this package and always encode; a failure is a
// bug and panics.
func hashOf(v any) string {
	h, err := canon.Hash(v)
	if err != nil {
		panic(fmt.Sprintf("catalog: hash: %v", err))
	}
	return h
}
