package redact

import "io"

// Writer returns a writer that writes to w what it is given with the
// secrets r knows redacted. Each Write is redacted as a whole, so a caller
// writes whole lines (fmt.Fprintf writes once per call); a Write reports
// the whole of its input written when w took all of its redacted form.
func (r *Redactor) Writer(w io.Writer) io.Writer { return &writer{r: r, w: w} }

type writer struct {
	r *Redactor
	w io.Writer
}

// Unwrap returns the writer w writes to, so that a caller can ask whether
// it is a terminal.
func (w *writer) Unwrap() io.Writer { return w.w }

func (w *writer) Write(p []byte) (int, error) {
	s := string(p)
	red := w.r.String(s)
	if red == s {
		return w.w.Write(p)
	}
	if _, err := io.WriteString(w.w, red); err != nil {
		return 0, err
	}
	return len(p), nil
}
