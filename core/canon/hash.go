package canon

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// Hash returns "sha256:" and the lowercase hex SHA-256 of the canonical
// JSON of v (conform's hash, DESIGN "Hashes"; CONTRACTS §1.5
// hashAiCoderCanonicalValue).
func Hash(v any) (string, error) {
	b, err := Marshal(v)
	if err != nil {
		return "", err
	}
	return HashBytes(b), nil
}

// HashBytes returns "sha256:" and the lowercase hex SHA-256 of b.
func HashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	var text [len("sha256:") + 2*sha256.Size]byte
	copy(text[:], "sha256:")
	hex.Encode(text[len("sha256:"):], sum[:])
	return string(text[:])
}

// HashText returns [HashBytes] of the UTF-8 bytes of s (the prompt's
// sha256Text, CONTRACTS §1.5).
func HashText(s string) string {
	return HashBytes([]byte(s))
}

// ContextHash returns the context content hash of v (CONTRACTS §1.5
// aiCoderContextContentHash): [ContextHashText] of v's canonical JSON,
// which equals the stable JSON of §1.2 for every value Go can hold.
func ContextHash(v any) (string, error) {
	b, err := Marshal(v)
	if err != nil {
		return "", err
	}
	return ContextHashText(string(b)), nil
}

// ContextHashText returns "fnv1a64:" and 16 lowercase hex digits: two
// 32-bit FNV-style lanes over the UTF-16 code units of text (CONTRACTS
// §1.5). Despite the name it is not 64-bit FNV-1a, and it is a dedupe key,
// not a cryptographic hash.
func ContextHashText(text string) string {
	first, second := uint32(0x811c9dc5), uint32(0x9e3779b9)
	mix := func(c uint32) {
		first = (first ^ c) * 0x01000193
		second = (second ^ c) * 0x85ebca6b
	}
	for _, r := range text {
		if r > 0xFFFF {
			r -= 0x10000
			mix(uint32(0xD800 + r>>10))
			mix(uint32(0xDC00 + r&0x3FF))
		} else {
			mix(uint32(r))
		}
	}
	var lanes [8]byte
	binary.BigEndian.PutUint32(lanes[:4], first)
	binary.BigEndian.PutUint32(lanes[4:], second)
	var out [len("fnv1a64:") + 2*len(lanes)]byte
	copy(out[:], "fnv1a64:")
	hex.Encode(out[len("fnv1a64:"):], lanes[:])
	return string(out[:])
}
