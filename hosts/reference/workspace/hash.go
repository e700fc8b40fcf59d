package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// HashPrefix is the prefix of every hash in typed mutation evidence
// (port.Write). Port results (read, write and search hashes) carry bare
// lowercase hex so that a model copying a read hash satisfies a
// matches_sha256 precondition (DECISIONS 36).
const HashPrefix = "sha256:"

// SHA256Hex returns the lowercase hex SHA-256 of b (LAB_AND_HOSTS §16).
func SHA256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// sha256Text is SHA256Hex of the UTF-8 bytes of s.
func sha256Text(s string) string { return SHA256Hex([]byte(s)) }

// evidenceHash turns a bare hex digest into a prefixed evidence hash.
func evidenceHash(hexDigest string) *string {
	s := HashPrefix + hexDigest
	return &s
}

// normalizeHash strips an optional "sha256:" prefix and lower-cases the
// digest, so declared hashes compare in any accepted form (CONTRACTS §6.1).
func normalizeHash(h string) string {
	return strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(h, HashPrefix), strings.ToUpper(HashPrefix)))
}

// isLowerHex64 reports whether s is 64 lowercase hexadecimal characters.
func isLowerHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
