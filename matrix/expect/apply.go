package expect

import (
	"fmt"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/reports"
)

// A Problem is an entry that fails the run: it names an unknown item, it
// has expired, or its item no longer fails as it says. Error names the
// file and line of the entry and what to do.
type Problem struct {
	Path  string
	Entry Entry
	// What says what is wrong with the entry, and what to do.
	What string
}

func (p Problem) Error() string {
	return fmt.Sprintf("%s:%d: item %s: %s", p.Path, p.Entry.Line, p.Entry.Item, p.What)
}

// DateLayout is the layout of an entry's expiry date.
const DateLayout = "2006-01-02"

// Apply marks in doc the failures that an entry of f expects (the item's
// Expected field) and recounts doc's summary. known reports whether an ID
// is a runnable item of the matrix; today is the date the entries'
// expiry is compared with (an entry expires after its date).
//
// It returns, in file order, the entries that fail the run: an unknown
// item; an expired entry (its failure is then not expected either); an
// entry whose item ran and did not fail (stale), or failed without its
// message. An entry whose item did not run (not selected, or skipped) is
// neither used nor stale.
func (f *File) Apply(doc *reports.Document, known func(id int) bool, today time.Time) []Problem {
	day := today.Format(DateLayout)
	byID := map[int]*reports.Item{}
	for i := range doc.Items {
		byID[doc.Items[i].ID] = &doc.Items[i]
	}
	var problems []Problem
	bad := func(e Entry, format string, args ...any) {
		problems = append(problems, Problem{Path: f.Path, Entry: e, What: fmt.Sprintf(format, args...)})
	}
	for _, e := range f.Entries {
		if !known(e.ID) {
			bad(e, "no runnable item %s in matrix %s (see `conform matrix`); delete this entry", matrix.RefOf(e.ID), matrix.Version)
			continue
		}
		if e.Expires < day {
			bad(e, "expired on %s (owner %s); fix the failure and delete this entry, or give it a later date", e.Expires, e.Owner)
			continue
		}
		it, ran := byID[e.ID]
		if !ran || it.Status == reports.Skipped {
			continue
		}
		switch {
		case it.Status != reports.Failed:
			bad(e, "no longer fails (status %s); delete this entry", it.Status)
		case e.Message != "" && !strings.Contains(it.Reason, e.Message):
			bad(e, "failed, but its reason does not contain %q; fix the failure, or update the entry's message", e.Message)
		case it.Expected == nil:
			it.Expected = &reports.ExpectedFailure{
				Reason: e.Reason, Owner: e.Owner, Expires: e.Expires, Message: e.Message,
				Source: fmt.Sprintf("%s:%d", f.Path, e.Line),
			}
		}
	}
	doc.Tally()
	return problems
}
