package termsafe_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/internal/termsafe"
)

func TestString(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain text", "exit status 1: no such file", "exit status 1: no such file"},
		{"newline and tab kept", "line 1\n\tline 2", "line 1\n\tline 2"},
		{"utf-8 kept", "✓ 1 read — naïve 日本", "✓ 1 read — naïve 日本"},
		{"backslash kept", `C:\tmp\x1b`, `C:\tmp\x1b`},
		{"window title", "boom\x1b]0;pwned\x07", `boom\x1b]0;pwned\x07`},
		{"clipboard write", "\x1b]52;c;ZWNobyBoaQ==\x1b\\", `\x1b]52;c;ZWNobyBoaQ==\x1b\`},
		{"clear screen", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"carriage return", "ok\rFAIL", `ok\rFAIL`},
		{"crlf line ends", "one\r\ntwo\r\n", "one\ntwo\n"},
		{"nul and del", "a\x00b\x7f", `a\x00b\x7f`},
		{"c1 csi", "a\u009b2Jb", `a\u009b2Jb`},
		{"bidi override", "file\u202etxt.exe", `file\u202etxt.exe`},
		{"bidi isolate", "a\u2066b\u2069", `a\u2066b\u2069`},
		{"raw c1 byte", "a\x9b2J", `a\x9b2J`},
		{"invalid utf-8", "a\xffb", `a\xffb`},
	}
	for _, c := range cases {
		if got := termsafe.String(c.in); got != c.want {
			t.Errorf("%s: String(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

func TestLine(t *testing.T) {
	if got, want := termsafe.Line("fx\nPASS  forged\tx\x1b[2J"), `fx\nPASS  forged\tx\x1b[2J`; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	if got := termsafe.Line("01-read-only inspect"); got != "01-read-only inspect" {
		t.Errorf("Line changed plain text: %q", got)
	}
}

// TestStringIsSafe checks on many inputs that the result holds no
// character a terminal acts on, and that text without one is unchanged.
func TestStringIsSafe(t *testing.T) {
	var all []byte
	for c := 0; c < 256; c++ {
		all = append(all, byte(c))
	}
	inputs := []string{string(all), "\u0085\u009f\u202a\u2069", strings.Repeat("\x1b[31m", 100)}
	for _, in := range inputs {
		for _, out := range []string{termsafe.String(in), termsafe.Line(in)} {
			if !utf8.ValidString(out) {
				t.Errorf("escaped %q is not UTF-8: %q", in, out)
			}
			for _, r := range out {
				if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
					t.Errorf("escaped %q still holds %U: %q", in, r, out)
				}
			}
		}
	}
}

func TestJSON(t *testing.T) {
	v := map[string]string{"reason": "a\x1b[2J\u009b\u202e\x7fb", "plain": "ok"}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	safe := termsafe.JSON(b)
	if strings.ContainsAny(string(safe), "\x1b\x7f\u009b\u202e") {
		t.Errorf("JSON left a control character: %q", safe)
	}
	var back map[string]string
	if err := json.Unmarshal(safe, &back); err != nil {
		t.Fatalf("escaped JSON does not decode: %v\n%s", err, safe)
	}
	if back["reason"] != v["reason"] || back["plain"] != "ok" {
		t.Errorf("escaped JSON decodes to %q, want %q", back, v)
	}
	plain := []byte("{\n  \"a\": \"b\"\n}")
	if got := termsafe.JSON(plain); string(got) != string(plain) {
		t.Errorf("JSON changed plain JSON: %q", got)
	}
}

func FuzzString(f *testing.F) {
	f.Add("boom\x1b]0;pwned\x07\n\t\u009b\xff")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{termsafe.String(s), termsafe.Line(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("not UTF-8: %q", out)
			}
			for _, r := range out {
				if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f {
					t.Fatalf("control %U left in %q", r, out)
				}
			}
		}
		if strings.ContainsAny(termsafe.Line(s), "\n\t") {
			t.Fatalf("Line kept a newline or tab: %q", termsafe.Line(s))
		}
	})
}

func BenchmarkString(b *testing.B) {
	text := strings.Repeat("✓ 13 symlink and path traversal attempts — naïve 日本 0.21s\n", 1000)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if termsafe.String(text) != text {
			b.Fatal("plain text changed")
		}
	}
}
