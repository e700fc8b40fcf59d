package command

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// TestTailBufferKeepsLastBytes checks the ring against the plain
// definition: the last max bytes of everything written.
func TestTailBufferKeepsLastBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		max := rapid.IntRange(1, 64).Draw(t, "max")
		chunks := rapid.SliceOf(rapid.SliceOfN(rapid.Byte(), 0, 100)).Draw(t, "chunks")
		tb := newTailBuffer(max)
		var all []byte
		for _, c := range chunks {
			_, _ = tb.Write(c)
			all = append(all, c...)
		}
		want := all[len(all)-min(max, len(all)):]
		if !bytes.Equal(tb.Bytes(), want) {
			t.Fatalf("Bytes() = %q, want %q", tb.Bytes(), want)
		}
		if tb.Truncated() != (len(all) > max) || tb.Total() != int64(len(all)) {
			t.Fatalf("Truncated() = %v, Total() = %d for %d bytes", tb.Truncated(), tb.Total(), len(all))
		}
		text := tb.Text()
		if !utf8.ValidString(text) || len(text) > max {
			t.Fatalf("Text() = %q is invalid or longer than %d bytes", text, max)
		}
		if utf8.Valid(want) && !bytes.HasSuffix(want, []byte(text)) {
			t.Fatalf("Text() = %q is not a suffix of valid %q", text, want)
		}
	})
}

// TestDecodeUTF8MaximalSubparts checks replacement against the examples
// of the Unicode standard's "U+FFFD substitution of maximal subparts".
func TestDecodeUTF8MaximalSubparts(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64", "a\uFFFD\uFFFD\uFFFDb\uFFFDc\uFFFD\uFFFDd"},
		{"\xC0\xAF\xE0\x80\xBF\xF0\x81\x82\x41", "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\x41"},
		{"\xED\xA0\x80\xED\xBF\xBF\xED\xAF\x41", "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\x41"},
		{"\xF4\x91\x92\x93\xFF\x41\x80\xBF\x42", "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\x41\uFFFD\uFFFD\x42"},
		{"\xE1\x80\xE2\xF0\x91\x92\xF1\xBF\x41", "\uFFFD\uFFFD\uFFFD\uFFFD\x41"},
		{"ok \xEF\xBF\xBD", "ok \uFFFD"},
	} {
		if got := decodeUTF8([]byte(c.in)); got != c.want {
			t.Errorf("decodeUTF8(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
