package schema

import "github.com/galaxy-stack/conform/core/canon"

// canonicalText returns the canonical JSON text of v (CONTRACTS §1.3). It is
// the identity used for the compile cache and for duplicate detection in
// "enum" (CONTRACTS §5.2).
func canonicalText(v any) (string, error) {
	b, err := canon.Marshal(v)
	return string(b), err
}
