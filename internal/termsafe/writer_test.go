package termsafe_test

import (
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/internal/termsafe"
)

// TestWriterMatchesString writes text cut at every byte and checks that
// the result is what String makes of it whole, a character cut in two
// included.
func TestWriterMatchesString(t *testing.T) {
	in := "✓ naïve\x1b]0;title\x07 日本\u009b2J\r\n\tend\r\xff\xe6"
	want := termsafe.String(in)
	for cut := 0; cut <= len(in); cut++ {
		var b strings.Builder
		w := termsafe.NewWriter(&b)
		for _, part := range []string{in[:cut], in[cut:]} {
			if n, err := w.Write([]byte(part)); err != nil || n != len(part) {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("cut at %d: %q, want %q", cut, b.String(), want)
		}
	}
}
