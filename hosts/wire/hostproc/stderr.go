package hostproc

import (
	"bytes"
	"io"
	"sync"

	"github.com/galaxy-stack/conform/internal/redact"
)

// stderrKeep is how much of a host's standard error a client keeps.
const stderrKeep = 8 << 10

// tail keeps the last max bytes written to it; whatever else is written is
// discarded, so a host that floods its standard error costs nothing.
type tail struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	trunc bool
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		t.trunc = true
		return len(p), nil
	}
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.trunc = true
	}
	return len(p), nil
}

// String returns the kept text with its secrets redacted. When older output
// was dropped, the first, partial line is dropped too, so that no secret is
// shown cut in half.
func (t *tail) String() string {
	t.mu.Lock()
	b := bytes.Clone(t.buf)
	trunc := t.trunc
	t.mu.Unlock()
	if trunc {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return redact.String(string(bytes.TrimSpace(b)))
}

// drain copies r into t until r ends, then closes done.
func (t *tail) drain(r io.Reader, done chan<- struct{}) {
	defer close(done)
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			_, _ = t.Write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}
