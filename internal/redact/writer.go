package redact

import (
	"io"
	"regexp"
	"strings"
	"sync"
)

// Writer returns a writer that writes to w what it is given with the
// secrets r knows redacted. Each Write is redacted as a whole, so a caller
// writes whole lines (fmt.Fprintf writes once per call); a Write reports
// the whole of its input written when w took all of its redacted form.
//
// A private key block printed a line per Write is redacted too: after a
// Write that opens a block without closing it, the lines that follow are
// redacted while they look like the block's body (base64, or a PEM header
// such as "Proc-Type:"), up to and including its END line.
func (r *Redactor) Writer(w io.Writer) io.Writer { return &writer{r: r, w: w} }

type writer struct {
	r *Redactor
	w io.Writer

	mu    sync.Mutex
	inKey bool // a private key block is open
}

// Unwrap returns the writer w writes to, so that a caller can ask whether
// it is a terminal.
func (w *writer) Unwrap() io.Writer { return w.w }

var (
	keyBegin = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`) })
	keyEnd   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`) })
	keyBody  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[A-Za-z0-9+/=]*|[A-Za-z-]+: .*)$`) })
)

func (w *writer) Write(p []byte) (int, error) {
	s := string(p)
	w.mu.Lock()
	red := w.keyLines(s)
	red = w.r.String(red)
	// A block this Write opens and does not close goes on in the next.
	if i := lastIndex(keyBegin(), s); i >= 0 && lastIndex(keyEnd(), s[i:]) < 0 {
		w.inKey = true
	}
	w.mu.Unlock()
	if red == s {
		return w.w.Write(p)
	}
	if _, err := io.WriteString(w.w, red); err != nil {
		return 0, err
	}
	return len(p), nil
}

// keyLines redacts, while a private key block is open, the lines of s that
// belong to it.
func (w *writer) keyLines(s string) string {
	if !w.inKey {
		return s
	}
	var b strings.Builder
	rest := s
	for rest != "" && w.inKey {
		line, tail, nl := strings.Cut(rest, "\n")
		trimmed := strings.TrimSpace(line)
		switch {
		case keyEnd().MatchString(line):
			w.inKey = false
			loc := keyEnd().FindStringIndex(line)
			b.WriteString("[REDACTED:private-key]" + line[loc[1]:])
		case keyBody().MatchString(trimmed):
			b.WriteString(line[:len(line)-len(strings.TrimLeft(line, " \t"))] + "[REDACTED:private-key]")
		default:
			w.inKey = false
			b.WriteString(line)
		}
		if nl {
			b.WriteByte('\n')
		}
		rest = tail
	}
	b.WriteString(rest)
	return b.String()
}

// lastIndex is where the last match of re in s starts, or -1.
func lastIndex(re *regexp.Regexp, s string) int {
	ms := re.FindAllStringIndex(s, -1)
	if ms == nil {
		return -1
	}
	return ms[len(ms)-1][0]
}
