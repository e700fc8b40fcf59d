package command

import (
	"strings"
	"unicode/utf8"
)

// A tailBuffer retains the last max bytes written to it in a fixed ring, so
// memory stays bounded however much a command prints (LAB_AND_HOSTS §11.2
// step 9).
type tailBuffer struct {
	max   int
	buf   []byte
	start int
	size  int
	total int64
}

// newTailBuffer returns a buffer retaining at most max bytes.
func newTailBuffer(max int) *tailBuffer {
	return &tailBuffer{max: max, buf: make([]byte, max)}
}

// Write appends p, dropping the oldest bytes beyond the bound. It never
// fails.
func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	t.total += int64(n)
	if len(p) > t.max {
		p = p[len(p)-t.max:]
	}
	for len(p) > 0 {
		pos := (t.start + t.size) % t.max
		k := copy(t.buf[pos:], p)
		p = p[k:]
		t.size += k
		if t.size > t.max {
			t.start = (t.start + t.size - t.max) % t.max
			t.size = t.max
		}
	}
	return n, nil
}

// Truncated reports whether any byte was dropped.
func (t *tailBuffer) Truncated() bool { return t.total > int64(t.max) }

// Total returns the number of bytes ever written.
func (t *tailBuffer) Total() int64 { return t.total }

// Bytes returns a copy of the retained bytes in order.
func (t *tailBuffer) Bytes() []byte {
	out := make([]byte, 0, t.size)
	end := t.start + t.size
	if end <= t.max {
		return append(out, t.buf[t.start:end]...)
	}
	out = append(out, t.buf[t.start:]...)
	return append(out, t.buf[:end-t.max]...)
}

// Text returns the public text of the retained bytes: decoded as UTF-8 with
// one U+FFFD per maximal invalid subsequence (the WHATWG decoder the
// original uses), then trimmed at the front by whole code points until its
// UTF-8 length is within the bound, since a replacement character can take
// more bytes than the byte it replaced.
func (t *tailBuffer) Text() string {
	text := decodeUTF8(t.Bytes())
	for len(text) > t.max {
		_, size := utf8.DecodeRuneInString(text)
		text = text[size:]
	}
	return text
}

// decodeUTF8 decodes b as UTF-8, replacing each maximal subpart of an
// ill-formed sequence with U+FFFD (Unicode §3.9, WHATWG Encoding).
func decodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			sb.Write(b[i : i+size])
			i += size
			continue
		}
		sb.WriteRune(utf8.RuneError)
		i += maximalSubpart(b[i:])
	}
	return sb.String()
}

// maximalSubpart returns the length of the maximal subpart of the
// ill-formed sequence starting at b[0]: a valid lead byte and the
// continuation bytes that could still have completed it, or 1.
func maximalSubpart(b []byte) int {
	lo, hi := byte(0x80), byte(0xBF)
	var need int
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default:
		return 1
	}
	i := 1
	for ; i <= need && i < len(b); i++ {
		x := b[i]
		if i == 1 && (x < lo || x > hi) || i > 1 && (x < 0x80 || x > 0xBF) {
			break
		}
	}
	return i
}
