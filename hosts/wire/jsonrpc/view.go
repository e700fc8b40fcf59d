package jsonrpc

import (
	"bytes"
	"encoding/json"
	"unsafe"
)

// A RawView decodes like a [json.RawMessage] without copying what it can
// share: set In to the text about to be decoded with [json.Unmarshal], and
// Raw is the member's JSON text as sent, a slice of In when the decoder
// hands the text out of In (as encoding/json does), or else a copy. A
// large message then holds its result once, in its line, rather than once
// in the line and once per decoded layer. Raw shares In's bytes: In must
// not change while Raw is in use.
type RawView struct {
	In  []byte          `json:"-"`
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps data when it lies within v.In, and a copy of it
// otherwise: the decoder may reuse a buffer of its own.
func (v *RawView) UnmarshalJSON(data []byte) error {
	if within(v.In, data) {
		v.Raw = data[:len(data):len(data)]
	} else {
		v.Raw = bytes.Clone(data)
	}
	return nil
}

// within reports whether inner's bytes are part of outer's.
func within(outer, inner []byte) bool {
	if len(outer) == 0 || len(inner) == 0 {
		return false
	}
	o := uintptr(unsafe.Pointer(unsafe.SliceData(outer)))
	i := uintptr(unsafe.Pointer(unsafe.SliceData(inner)))
	return i >= o && i-o <= uintptr(len(outer)-len(inner))
}
