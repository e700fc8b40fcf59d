package window

import (
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// codeMarkersRegexp is CONTRACTS §12.2's code test as a regular
// expression: the reference hasCodeMarker must agree with.
var codeMarkersRegexp = regexp.MustCompile(`=>|\b(?:const|let|var|function|class|interface|return|import|export|def|fn|impl)\b|[{};]`)

// codePieces build texts around the markers: keywords, keyword prefixes
// and extensions, word and non-word neighbours (ASCII and not).
var codePieces = []string{
	"const", "let", "var", "function", "class", "interface", "return", "import", "export", "def", "fn", "impl",
	"cons", "lets", "_", "x", "9", "é", "ſ", " ", "\n", "=", ">", "=>", "{", "}", ";", "-", ".", "Const", "FN", "fnx",
}

// neighbours are the characters drawn around one piece.
var neighbours = []string{"_", "x", "Z", "9", "é", "ſ", " ", "\n", "=", ">", "-", ".", "\t", "$"}

// TestPropertyCodeMarker: the hand-written scan matches the regular
// expression on texts built from marker fragments.
func TestPropertyCodeMarker(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		before := rapid.SliceOfN(rapid.SampledFrom(neighbours), 0, 3).Draw(t, "before")
		word := rapid.SampledFrom(codePieces).Draw(t, "word")
		after := rapid.SliceOfN(rapid.SampledFrom(neighbours), 0, 3).Draw(t, "after")
		s := strings.Join(before, "") + word + strings.Join(after, "")
		if got, want := hasCodeMarker(s), codeMarkersRegexp.MatchString(s); got != want {
			t.Fatalf("hasCodeMarker(%q) = %v, the regular expression says %v", s, got, want)
		}
	})
}
