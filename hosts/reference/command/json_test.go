package command_test

import (
	"encoding/json"
	"io"
)

// jsonEncode writes v as compact JSON without HTML escaping.
func jsonEncode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
