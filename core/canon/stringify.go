package canon

import "bytes"

// Stringify encodes v the way JavaScript's JSON.stringify writes it where
// Go can: compact, without the HTML escaping encoding/json adds (<, >, &
// stay literal), in Go's field and sorted map-key order. It is for
// model-visible text and length estimates; hashes use Marshal.
func Stringify(v any) ([]byte, error) {
	b := jsonBuffers.Get().(*bytes.Buffer)
	defer putJSONBuffer(b)
	raw, err := encodeJSON(b, v)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(raw), nil
}
