package proc

import "io"

// A Head keeps the first N bytes written to it in W and discards the rest,
// always reporting the whole write as done: a child process's standard
// error quoted in an error stays bounded, and the child never sees a
// failed write.
type Head struct {
	W io.Writer
	N int
}

// Write passes on what still fits in N and reports all of p as written.
func (h *Head) Write(p []byte) (int, error) {
	if h.N > 0 {
		k := min(len(p), h.N)
		_, _ = h.W.Write(p[:k])
		h.N -= k
	}
	return len(p), nil
}
