// Package canon holds the deterministic primitives every conform hash is
// built on (CONTRACTS §1): canonical JSON, SHA-256 hashes written
// "sha256:<hex>", text ordering by UTF-16 code units, UTF-16 lengths, the
// JavaScript notion of a blank string, and the two-lane context content
// hash.
//
// # Canonical JSON
//
// [Marshal] turns any Go value that encoding/json can marshal (structs,
// maps, slices, [json.RawMessage], an [Object] parsed by [Parse]) into RFC
// 8785 (JCS) canonical JSON: no whitespace, object members sorted by
// [CompareText], strings escaped as JavaScript's JSON.stringify escapes them
// (only '"', '\\' and U+0000–U+001F; '<', '>', '&', U+2028 and U+2029 stay
// literal), numbers in ECMAScript shortest round-trip form (1 not 1.0,
// 1e+21, -0 prints as 0). Non-finite numbers are rejected with
// [ErrNonFinite], duplicate object keys and invalid UTF-8 with an error.
//
//	b, _ := canon.Marshal(map[string]any{"b": 1, "a": []any{0.5, "<&>"}})
//	// b == `{"a":[0.5,"<&>"],"b":1}`
//
// The output equals gowebpki/jcs's Transform of the same JSON text; the
// package tests check that on random values. [MarshalTree] writes the same
// bytes for a tree from [Parse] without going through encoding/json.
//
// # Hashes
//
// [Hash] is SHA-256 over [Marshal], [HashBytes] and [HashText] hash raw
// bytes; all three return "sha256:" and 64 lowercase hex digits (DESIGN
// "Hashes"). [ContextHash] is the original runtime's context dedupe key
// "fnv1a64:<16 hex>" (CONTRACTS §1.5), which is two 32-bit FNV-style lanes
// over UTF-16 code units, not cryptographic.
//
// # Text
//
// Go's < compares UTF-8 bytes; the original runtime compares UTF-16 code
// units. The two differ only when a code point above U+FFFF meets one in
// U+E000–U+FFFF: [CompareText] puts "\U0001F600" before "\uE000".
// [SortStrings] sorts with it and [UTF16Len] counts what JavaScript's
// string.length counts.
//
// Go strings cannot hold lone UTF-16 surrogates; invalid UTF-8 in a Go
// string is marshalled as U+FFFD (as encoding/json does), and [Parse]
// rejects JSON text that is not valid UTF-8.
package canon
