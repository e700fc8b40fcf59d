package wire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// MaxLine is the default bound of one message on the wire (64 MiB); a
// longer line is a protocol violation. [StartOptions].MaxMessage and
// [Framer.Limit] change it.
const MaxLine = 64 << 20

// A Framer reads and writes newline-delimited JSON messages. Each message is
// one line; a blank line is ignored.
type Framer struct {
	r   *bufio.Reader
	max int
	wmu sync.Mutex
	w   io.Writer
}

// NewFramer returns a framer reading r and writing w, with lines bounded by
// MaxLine.
func NewFramer(r io.Reader, w io.Writer) *Framer {
	return &Framer{r: bufio.NewReaderSize(r, 64<<10), w: w, max: MaxLine}
}

// Limit sets the longest line Read accepts to n bytes (n <= 0 restores
// MaxLine) and returns f. It must be called before the first Read.
func (f *Framer) Limit(n int) *Framer {
	if n <= 0 {
		n = MaxLine
	}
	f.max = n
	return f
}

// MaxLine returns the longest line Read accepts.
func (f *Framer) MaxLine() int { return f.max }

// ErrLineTooLong is returned by Read for a line longer than the framer's
// limit. Read stops reading as soon as the limit is passed, so a long line
// never costs more memory than the limit.
var ErrLineTooLong = errors.New("wire: message longer than the line limit")

// Read returns the next non-blank line without its terminator. At the end of
// input it returns io.EOF; a final line without a newline is returned first.
// The returned slice is the caller's: it is allocated once, at its exact
// size.
func (f *Framer) Read() ([]byte, error) {
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
func (f *Framer) readLine() ([]byte, error) {
	var full [][]byte
	size := 0
	for {
		chunk, err := f.r.ReadSlice('\n')
		size += len(chunk)
		if size > f.max {
			return nil, ErrLineTooLong
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
// own goroutine, never from a caller's.
func (f *Framer) Write(msg []byte) error {
	if bytes.IndexByte(msg, '\n') >= 0 {
		return fmt.Errorf("wire: message contains a newline")
	}
	f.wmu.Lock()
	defer f.wmu.Unlock()
	buf := make([]byte, 0, len(msg)+1)
	buf = append(append(buf, msg...), '\n')
	_, err := f.w.Write(buf)
	return err
}
