package wire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// MaxLine bounds one message on the wire. A longer line is a protocol
// violation.
const MaxLine = 64 << 20

// A Framer reads and writes newline-delimited JSON messages. Each message is
// one line; a blank line is ignored.
type Framer struct {
	r   *bufio.Reader
	wmu sync.Mutex
	w   io.Writer
}

// NewFramer returns a framer reading r and writing w.
func NewFramer(r io.Reader, w io.Writer) *Framer {
	return &Framer{r: bufio.NewReaderSize(r, 64<<10), w: w}
}

// ErrLineTooLong is returned by Read for a line longer than MaxLine.
var ErrLineTooLong = errors.New("wire: message longer than 64 MiB")

// Read returns the next non-blank line without its terminator. At the end of
// input it returns io.EOF; a final line without a newline is returned first.
func (f *Framer) Read() ([]byte, error) {
	for {
		var line []byte
		for {
			chunk, err := f.r.ReadSlice('\n')
			line = append(line, chunk...)
			if len(line) > MaxLine {
				return nil, ErrLineTooLong
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				if err == io.EOF && len(bytes.TrimSpace(line)) > 0 {
					return bytes.TrimSpace(line), nil
				}
				return nil, err
			}
			break
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 {
			return line, nil
		}
	}
}

// Write writes msg, which must not contain a newline, as one line.
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
