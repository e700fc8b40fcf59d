package jsonrpc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
)

// A Framer carries whole messages over a byte stream: Read returns the
// next message as it was sent, Write sends one. A [Conn] is given its
// framer at construction, so tests can use in-memory pipes and the fault
// proxy can sit between a framer and a host.
//
// Read is called from one goroutine only, the Conn's reader; Write from
// one goroutine only, the Conn's writer, and it may block while the peer
// does not read. The slice Read returns is the caller's: the framer never
// writes to it again (a strict Conn's parsed tree shares its bytes). A Read error ends the connection; Read returns io.EOF at
// a clean end of input and an error matching [ErrLineTooLong] for a
// message over its limit.
type Framer interface {
	Read() ([]byte, error)
	Write(msg []byte) error
}

// MaxLine is the default bound of one message on the wire (64 MiB); a
// longer line is a protocol violation. [LineFramer.Limit] changes it.
const MaxLine = 64 << 20

// A LineFramer is the protocol's framer: newline-delimited JSON, one
// message per line; a blank line is ignored.
type LineFramer struct {
	r   *bufio.Reader
	max int
	wmu sync.Mutex
	w   io.Writer
}

var _ Framer = (*LineFramer)(nil)

// NewLineFramer returns a framer reading r and writing w, with lines
// bounded by MaxLine.
func NewLineFramer(r io.Reader, w io.Writer) *LineFramer {
	return &LineFramer{r: bufio.NewReaderSize(r, 64<<10), w: w, max: MaxLine}
}

// Limit sets the longest line Read accepts to n bytes (n <= 0 restores
// MaxLine) and returns f. It must be called before the first Read.
func (f *LineFramer) Limit(n int) *LineFramer {
	if n <= 0 {
		n = MaxLine
	}
	f.max = n
	return f
}

// ErrLineTooLong matches the error Read returns for a line longer than
// the framer's limit. Read stops reading as soon as the limit is passed,
// so a long line never costs more memory than the limit.
var ErrLineTooLong = errors.New("jsonrpc: message longer than the line limit")

// A lineTooLongError is ErrLineTooLong with the limit that was passed.
type lineTooLongError struct{ limit int }

func (e *lineTooLongError) Error() string { return ErrLineTooLong.Error() }

func (e *lineTooLongError) Is(target error) bool { return target == ErrLineTooLong }

// Read returns the next non-blank line without its terminator. At the end of
// input it returns io.EOF; a final line without a newline is returned first.
// The returned slice is the caller's: it is allocated once, at its exact
// size.
func (f *LineFramer) Read() ([]byte, error) {
	for {
		line, err := f.readLine()
		if err != nil {
			return nil, err
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line, nil
		}
	}
}

// readLine reads up to and including the next newline (or the end of
// input), collecting full buffers and copying them once into a line of the
// exact size, as bufio.Reader.ReadBytes does, but bounded.
func (f *LineFramer) readLine() ([]byte, error) {
	var full [][]byte
	size := 0
	for {
		chunk, err := f.r.ReadSlice('\n')
		size += len(chunk)
		if size > f.max {
			return nil, &lineTooLongError{limit: f.max}
		}
		if err == bufio.ErrBufferFull {
			full = append(full, bytes.Clone(chunk))
			continue
		}
		if err != nil && (err != io.EOF || len(bytes.TrimSpace(chunk)) == 0 && len(full) == 0) {
			return nil, err
		}
		line := make([]byte, 0, size)
		for _, b := range full {
			line = append(line, b...)
		}
		return append(line, chunk...), nil
	}
}

// Write writes msg, which must not contain a newline, as one line. Write
// blocks while the peer does not read; a [Conn] therefore writes from its
// own goroutine, never from a caller's. It is safe for concurrent use.
func (f *LineFramer) Write(msg []byte) error {
	if bytes.IndexByte(msg, '\n') >= 0 {
		return errors.New("jsonrpc: message contains a newline")
	}
	f.wmu.Lock()
	defer f.wmu.Unlock()
	buf := make([]byte, 0, len(msg)+1)
	buf = append(append(buf, msg...), '\n')
	_, err := f.w.Write(buf)
	return err
}
