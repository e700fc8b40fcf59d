package expect

import (
	"fmt"
	"slices"
	"strconv"
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
	if p.Entry.Check != "" {
		return fmt.Sprintf("%s:%d: item %s check %q: %s", p.Path, p.Entry.Line, p.Entry.Item, p.Entry.Check, p.What)
	}
	return fmt.Sprintf("%s:%d: item %s: %s", p.Path, p.Entry.Line, p.Entry.Item, p.What)
}

// DateLayout is the layout of an entry's expiry date.
const DateLayout = "2006-01-02"

// Apply marks in doc the failures that entries of f expect (the item's
// Expected field) and recounts doc's summary. known reports whether an ID
// is a runnable item of the matrix, and checks returns the names of its
// checks (conform matrix --json); today is the date the entries' expiry
// is compared with (an entry expires after its date).
//
// An entry without "check" expects its item's failure. Entries with
// "check" expect an item's failure when, together, they name every check
// the item failed on (its failedChecks); the item's Expected then takes
// the reason and owner of the first of them in file order, the earliest
// expiry, and the sources and checks of all.
//
// It returns, in file order, the entries that fail the run: an unknown
// item or check; an expired entry (its failure is then not expected
// either); an entry whose item ran and did not fail, or whose check did
// not fail (stale), or whose item failed without its message. An entry
// whose item did not run (not selected, or skipped) is neither used nor
// stale.
func (f *File) Apply(doc *reports.Document, known func(id int) bool, checks func(id int) []string, today time.Time) []Problem {
	day := today.Format(DateLayout)
	byID := map[int]*reports.Item{}
	for i := range doc.Items {
		byID[doc.Items[i].ID] = &doc.Items[i]
	}
	var problems []Problem
	bad := func(e Entry, format string, args ...any) {
		problems = append(problems, Problem{Path: f.Path, Entry: e, What: fmt.Sprintf(format, args...)})
	}
	var byCheck []int // items some check entry holds for, in first-seen order
	holds := map[int][]Entry{}
	for _, e := range f.Entries {
		if !known(e.ID) {
			bad(e, "no runnable item %s in matrix %s (see `conform matrix`); delete this entry", matrix.RefOf(e.ID), matrix.Version)
			continue
		}
		if e.Check != "" && !slices.Contains(checks(e.ID), e.Check) {
			bad(e, "item %s has no check %q (see `conform matrix --json`); correct the name or delete this entry", matrix.RefOf(e.ID), e.Check)
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
		case e.Check != "" && !failedOn(it, e.Check):
			bad(e, "no longer fails (the item fails on %s); delete this entry", failedNames(it))
		case e.Message != "" && !strings.Contains(it.Reason, e.Message):
			bad(e, "failed, but its reason does not contain %q; fix the failure, or update the entry's message", e.Message)
		case e.Check != "":
			if holds[e.ID] == nil {
				byCheck = append(byCheck, e.ID)
			}
			holds[e.ID] = append(holds[e.ID], e)
		case it.Expected == nil:
			it.Expected = &reports.ExpectedFailure{
				Reason: e.Reason, Owner: e.Owner, Expires: e.Expires, Message: e.Message,
				Source: fmt.Sprintf("%s:%d", f.Path, e.Line),
			}
		}
	}
	for _, id := range byCheck {
		if it := byID[id]; it.Expected == nil {
			it.Expected = f.expectedByChecks(it, holds[id])
		}
	}
	doc.Tally()
	return problems
}

// expectedByChecks is the expectation that entries es, each naming a
// check, make of failed item it: nil unless they name every check it
// failed on.
func (f *File) expectedByChecks(it *reports.Item, es []Entry) *reports.ExpectedFailure {
	named := map[string]bool{}
	for _, e := range es {
		named[e.Check] = true
	}
	for _, c := range it.FailedChecks {
		if !named[c.Check] {
			return nil
		}
	}
	first := es[0]
	x := &reports.ExpectedFailure{Reason: first.Reason, Owner: first.Owner, Expires: first.Expires, Message: first.Message}
	var sources []string
	for _, e := range es {
		sources = append(sources, fmt.Sprintf("%s:%d", f.Path, e.Line))
		if !slices.Contains(x.Checks, e.Check) {
			x.Checks = append(x.Checks, e.Check)
		}
		x.Expires = min(x.Expires, e.Expires)
	}
	x.Source = strings.Join(sources, ", ")
	return x
}

// failedOn reports whether item it failed on the check named check.
func failedOn(it *reports.Item, check string) bool {
	return slices.ContainsFunc(it.FailedChecks, func(c reports.FailedCheck) bool { return c.Check == check })
}

// failedNames lists the checks item it failed on, for a message.
func failedNames(it *reports.Item) string {
	if len(it.FailedChecks) == 0 {
		return "no recorded check"
	}
	var names []string
	for _, c := range it.FailedChecks {
		names = append(names, strconv.Quote(c.Check))
	}
	return strings.Join(names, ", ")
}
