package checkpoint

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// redactAlways applies the three rules without Redact's literal checks:
// the reference the prefiltered Redact must agree with.
func redactAlways(s string) string {
	s = bearerRule().ReplaceAllLiteralString(s, "Bearer [REDACTED]")
	s = keyRule().ReplaceAllLiteralString(s, "[REDACTED]")
	return labelRule().ReplaceAllString(s, "${1}[REDACTED]")
}

// redactPieces are fragments that build texts near and on the rules'
// literals, in mixed case, with JavaScript spaces and look-alike letters.
var redactPieces = []string{
	"Bearer", "bEaReR", "bearer", "sk-", "SK-", "key-", "KEY-", "api", "API", "_", "-", "key", "Key",
	"password", "PassWord", "secret", "SECRET", "token", "Token", "ſecret", "\u212aey", ":", "=", " ", "\t",
	"\u00a0", ",", ";", "abcdefghijkl", "x", "0123", "é", "[REDACTED]",
}

// TestPropertyRedactPrefilter: skipping a rule whose literal is absent
// never changes Redact's output.
func TestPropertyRedactPrefilter(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(redactPieces), 0, 12).Draw(t, "parts")
		s := strings.Join(parts, "")
		if got, want := Redact(s), redactAlways(s); got != want {
			t.Fatalf("Redact(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestContainsFold pins the literal check: ASCII letters fold, nothing
// else does.
func TestContainsFold(t *testing.T) {
	for _, c := range []struct {
		s, word string
		want    bool
	}{
		{"xxBeArErxx", "bearer", true},
		{"bearer", "bearer", true},
		{"beare", "bearer", false},
		{"ſecret", "secret", false},
		{"SECRET", "secret", true},
		{"", "api", false},
		{"aPi", "api", true},
	} {
		if got := containsFold(c.s, c.word); got != c.want {
			t.Errorf("containsFold(%q, %q) = %v, want %v", c.s, c.word, got, c.want)
		}
	}
}
