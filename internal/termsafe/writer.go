package termsafe

import (
	"io"
	"unicode/utf8"
)

// A Writer passes what is written to it on to an underlying writer as
// [String] would make it: for a stream of text, such as a rendered report,
// that conform did not write all of itself. A character (or CRLF) cut
// between two writes is held back until the next; [Writer.Flush] writes
// one still held at the end.
type Writer struct {
	w       io.Writer
	pending []byte // an incomplete UTF-8 sequence at the end of the last write
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p, escaped, and reports len(p) when everything before a
// held-back incomplete character was written.
func (w *Writer) Write(p []byte) (int, error) {
	data := p
	if len(w.pending) > 0 {
		data = append(w.pending, p...)
		w.pending = nil
	}
	cut := len(data)
	// Hold back the start of a multi-byte character the next write may
	// complete: at most utf8.UTFMax-1 bytes after the last rune start.
	for i := len(data) - 1; i >= 0 && i >= len(data)-(utf8.UTFMax-1); i-- {
		if utf8.RuneStart(data[i]) {
			if data[i] >= utf8.RuneSelf && !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	if cut > 0 && data[cut-1] == '\r' {
		cut-- // the CR of a CRLF the next write may complete
	}
	w.pending = append([]byte(nil), data[cut:]...)
	if err := w.write(data[:cut]); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a character still held back, escaped as the bytes that
// are not UTF-8 that it is.
func (w *Writer) Flush() error {
	p := w.pending
	w.pending = nil
	return w.write(p)
}

func (w *Writer) write(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	if !needsEscape(p, false) {
		_, err := w.w.Write(p)
		return err
	}
	_, err := io.WriteString(w.w, escape(string(p), false))
	return err
}
