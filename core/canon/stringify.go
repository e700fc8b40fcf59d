package canon

import (
	"bytes"
	"encoding/json"
)

// Stringify encodes v the way JavaScript's JSON.stringify writes it where
// Go can: compact, without the HTML escaping encoding/json adds (<, >, &
// stay literal), in Go's field and sorted map-key order. It is for
// model-visible text and length estimates; hashes use Marshal.
func Stringify(v any) ([]byte, error) {
	b := jsonBuffers.Get().(*bytes.Buffer)
	defer putJSONBuffer(b)
	b.Reset()
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.Clone(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}
