package canon

import "errors"

// ErrNonFinite is returned (wrapped) when a value holds NaN or ±Infinity,
// or JSON text holds a number too large for a float64. Canonical JSON
// rejects them (CONTRACTS §1.3: "Canonical JSON rejects non-finite numbers.").
var ErrNonFinite = errors.New("canon: canonical JSON rejects non-finite numbers")
