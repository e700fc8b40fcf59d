// Package progress prints a certification's items on a terminal as they
// finish, and the recap of what there is to fix after the counts line.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/reports"
)

// Progress marks, one per status, at the start of an item's line.
var progressMarks = map[string]string{
	reports.Passed:        "✓",
	reports.Failed:        "✗",
	reports.NotApplicable: "○",
	reports.Skipped:       "–",
}

var progressColors = map[string]string{
	reports.Passed: "32", reports.Failed: "31", reports.NotApplicable: "33", reports.Skipped: "33",
}

// A Printer prints one line per item as it finishes — the item's mark, ID,
// title and duration, then its reason and repro indented — and, on a
// terminal, a running count it rewrites in place. A nil *Printer prints
// nothing.
type Printer struct {
	w     io.Writer
	color bool
	tty   bool
	total int // items selected to run

	mu      sync.Mutex
	done    int
	pending *reports.Item // the item whose specs are running
}

// New returns a printer to w of a run of total items; color marks the
// status in color, tty rewrites a running count in place.
func New(w io.Writer, color, tty bool, total int) *Printer {
	return &Printer{w: w, color: color, tty: tty, total: total}
}

// Starting is called when a spec of item id (ref, as in "39" or "R2")
// starts: the previous item, if another, has finished.
func (p *Printer) Starting(id int, ref, title string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending != nil && p.pending.ID != id {
		p.flushLocked()
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K[%d/%d] %s %s …", p.done+1, p.total, ref, termsafe.Line(title))
	}
}

// Update records the item's state after one of its specs.
func (p *Printer) Update(it reports.Item) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending != nil && p.pending.ID != it.ID {
		p.flushLocked()
	}
	p.pending = &it
}

// Finish prints the last item.
func (p *Printer) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flushLocked()
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

func (p *Printer) flushLocked() {
	it := p.pending
	if it == nil {
		return
	}
	p.pending = nil
	p.done++
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	// Items a signal kept from starting say nothing: the end of the run
	// counts them.
	if it.Status == reports.Skipped && it.Reason == "" {
		return
	}
	mark := progressMarks[it.Status]
	if p.color {
		mark = "\x1b[" + progressColors[it.Status] + "m" + mark + "\x1b[0m"
	}
	// A reason quotes the host (its stderr, its answers): escaped, as
	// everything else of the item, before it reaches the terminal.
	fmt.Fprintf(p.w, "%s %s %s %.2fs\n", mark, reports.ItemRef(*it), termsafe.Line(it.Title), float64(it.DurationMs)/1000)
	if it.Reason != "" {
		for _, line := range strings.Split(it.Reason, "\n") {
			fmt.Fprintf(p.w, "    %s\n", termsafe.String(line))
		}
	}
	if it.Repro != "" {
		fmt.Fprintf(p.w, "    repro: %s\n", termsafe.Line(it.Repro))
	}
}

// Recap writes, after a run's counts line, what there is to fix: every
// failure no expectation allows, with its reason's first line and the
// command that repeats it, then the failures an expectations file allows,
// each with the entry that does. It writes nothing when nothing failed.
// Every string is escaped for the terminal: reasons quote the host.
func Recap(w io.Writer, doc *reports.Document) {
	var fix, expected []reports.Item
	for _, it := range doc.Items {
		switch {
		case it.Status != reports.Failed:
		case it.Expected != nil:
			expected = append(expected, it)
		default:
			fix = append(fix, it)
		}
	}
	if len(fix) > 0 {
		fmt.Fprintf(w, "\nTo fix (%d):\n", len(fix))
		for _, it := range fix {
			fmt.Fprintf(w, "  ✗ %s %s: %s\n", reports.ItemRef(it), termsafe.Line(it.Title), termsafe.Line(reports.FirstLine(it.Reason)))
			if it.Repro != "" {
				fmt.Fprintf(w, "      repro: %s\n", termsafe.Line(it.Repro))
			}
		}
	}
	if len(expected) > 0 {
		fmt.Fprintf(w, "\nExpected failures (%d):\n", len(expected))
		for _, it := range expected {
			x := it.Expected
			fmt.Fprintf(w, "  ✗ %s %s: expected by %s (owner %s, until %s): %s\n", reports.ItemRef(it), termsafe.Line(it.Title),
				termsafe.Line(x.Source), termsafe.Line(x.Owner), x.Expires, termsafe.Line(x.Reason))
		}
	}
}
