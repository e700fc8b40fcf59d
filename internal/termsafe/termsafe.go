// Package termsafe makes text that conform did not write itself — a host's
// standard error, a fixture's name, a result document's reason — safe to
// print on a terminal.
//
//	termsafe.String("boom\x1b]0;pwned\x07") // `boom\x1b]0;pwned\x07`
//
// A terminal obeys the control characters it is sent: an escape sequence
// can set the window title, write the clipboard (OSC 52), clear the screen
// or move the cursor over lines already printed. String shows every such
// character as a visible Go-style escape instead: C0 controls and DEL as
// \xNN, C1 controls and the Unicode bidirectional overrides as \uNNNN, and
// bytes that are not UTF-8 as \xNN. Everything else, backslashes included,
// is kept as it is, so that ordinary text reads unchanged.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// String returns s with every character a terminal would act on escaped,
// except newline and tab, which are kept (and a CRLF line end, which
// becomes a newline): use it for text printed as lines of its own (a
// reason, an error, a rendered report).
func String(s string) string { return escape(s, false) }

// Line returns s as String does, with newline and tab escaped too: use it
// for text that must stay on the one line it is printed in (a fixture's
// name, a file, a title), where a newline could forge a line of conform's
// own output.
func Line(s string) string { return escape(s, true) }

// JSON returns the JSON text b with the characters a terminal would act on
// that encoding/json leaves raw — DEL, the C1 controls and the bidi
// overrides — written as \uNNNN escapes. encoding/json already escapes the
// C0 controls, and outside strings JSON holds none of these characters, so
// the result decodes to the same value.
func JSON(b []byte) []byte {
	if !jsonNeedsEscape(b) {
		return b
	}
	var out strings.Builder
	out.Grow(len(b) + 16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out.WriteString(`\ufffd`) // not UTF-8: encoding/json never writes it
		case unsafeRune(r):
			fmt.Fprintf(&out, `\u%04x`, r)
		default:
			out.Write(b[i : i+size])
		}
		i += size
	}
	return []byte(out.String())
}

// jsonNeedsEscape reports whether b holds any character JSON rewrites.
func jsonNeedsEscape(b []byte) bool {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			if b[i] == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return true
		}
		i += size
	}
	return false
}

// unsafeRune reports whether a terminal acts on r: DEL, a C1 control, or a
// bidi embedding, override or isolate, which reorder what is shown.
func unsafeRune(r rune) bool {
	switch {
	case r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// needsEscape reports whether s holds any character escape would rewrite.
func needsEscape[T string | []byte](s T, line bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && (line || c != '\n' && c != '\t') || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return true
		}
		i += size
	}
	return false
}

func escape(s string, line bool) string {
	if !needsEscape(s, line) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && !line, r == '\t' && !line:
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r' && !line && i+1 < len(s) && s[i+1] == '\n':
			// A CRLF line end is a line end: drop the CR.
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
