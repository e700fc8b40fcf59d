package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/expect"
	"github.com/galaxy-stack/conform/reports"
)

// gateHelp is the part of `conform help certify` about gating a release on
// the run: expectations, --skip and --strict.
const gateHelp = `Gating: conform exits 0 only when no item failed, or when every failed item
is allowed by an entry of --expect FILE, an expectations file (JSON, or YAML
when its name ends in .yaml or .yml; schema
matrix/expect/schema/expectations.schema.json, checked when read):

  {"expectations": [
    {"item": "13", "reason": "no sandbox on this runner", "owner": "@ana",
     "expires": "2027-03-31", "message": "optional substring of the failure"}
  ]}

or in YAML (every scalar is read as a string, so item: 13 and
expires: 2027-03-31 need no quotes):

  expectations:
    - item: 13
      reason: no sandbox on this runner
      owner: "@ana"
      expires: 2027-03-31

Each entry names an item by its reference (13, R3), why it fails, who
answers for it and the last day (YYYY-MM-DD, UTC) it may; "message" pins it
to failures whose reason contains that text. "check" narrows it to one check
of the item (a scenario file name without .json, or a spec's text, as
conform matrix --json lists them; a failed item lists the checks it failed
on as failedChecks): the item's failure is expected when entries name every
check it failed on, and an entry whose check did not fail is stale. An allowed failure is shown as
expected in the terminal and in every report ("expected" on the item of
the result document). An entry fails the run (exit 1), with the file and
line of the entry to delete, when its item is not a runnable item of the
matrix, when its date has passed, or when its item ran and no longer fails
(or fails without its message); an entry whose item did not run is unused.
--skip 3,R2 leaves items out of an ad-hoc run: they are listed as skipped
by request. --strict is certification mode and refuses --expect and
--skip (exit 2). A selection that runs no item (--area model, --only 1
--area tools, --skip of everything) is an invocation error (exit 2).

The run ends with its counts, then what to fix: each failure no
expectation allows, with its reason's first line and its repro command,
the expected failures with their entries, any entry that fails the run,
and the paths of the reports written.`

// gateFlags are certify's flags that decide what gates the exit status:
// --expect, --skip and --strict.
type gateFlags struct {
	expect, skip string
	strict       bool
	// today is the clock entries expire by; tests replace it.
	today func() time.Time
}

func addGateFlags(fs *flag.FlagSet) *gateFlags {
	g := &gateFlags{today: time.Now}
	fs.StringVar(&g.expect, "expect", "", "allow the failures listed in the expectations `FILE` (JSON or YAML; see below)")
	fs.StringVar(&g.skip, "skip", "", "comma-separated item IDs not to run, reported as skipped by request")
	fs.BoolVar(&g.strict, "strict", false, "certification mode: refuse --expect and --skip")
	return g
}

// load checks the flags together and reads the expectations file, before
// anything runs: the IDs --skip names and the file (nil without --expect).
func (g *gateFlags) load() ([]int, *expect.File, error) {
	if g.strict && g.expect != "" {
		return nil, nil, usagef("certify: --strict refuses --expect: a certification allows no failure; drop one of them")
	}
	if g.strict && g.skip != "" {
		return nil, nil, usagef("certify: --strict refuses --skip: a certification runs every selected item; drop one of them")
	}
	var skip []int
	if strings.TrimSpace(g.skip) != "" {
		for _, s := range strings.Split(g.skip, ",") {
			id, err := matrix.ParseRef(s)
			if err != nil {
				return nil, nil, usagef("--skip %q: want comma-separated item numbers or references such as 1,13,R1", g.skip)
			}
			if !slices.Contains(skip, id) {
				skip = append(skip, id)
			}
		}
	}
	if g.expect == "" {
		return skip, nil, nil
	}
	f, err := expect.Read(g.expect)
	if err != nil {
		return nil, nil, usagef("certify: --expect: %s", termsafe.Line(err.Error()))
	}
	return skip, f, nil
}

// apply marks the failures f expects in doc and returns the entries that
// fail the run; none without a file.
func (g *gateFlags) apply(f *expect.File, doc *reports.Document) []expect.Problem {
	if f == nil {
		return nil
	}
	runnable := map[int]bool{}
	for _, it := range matrix.Items() {
		runnable[it.ID] = it.Runnable
	}
	checks := func(id int) []string {
		var names []string
		for _, c := range matrix.Checks(id) {
			names = append(names, c.Name)
		}
		return names
	}
	return f.Apply(doc, func(id int) bool { return runnable[id] }, checks, g.today().UTC())
}

// printProblems lists the expectations entries that fail the run.
func printProblems(w io.Writer, problems []expect.Problem) {
	if len(problems) == 0 {
		return
	}
	fmt.Fprintf(w, "\nExpectations to update (%d):\n", len(problems))
	for _, p := range problems {
		fmt.Fprintf(w, "  %s\n", termsafe.Line(p.Error()))
	}
}

// printWritten lists the paths of the reports written, and of the other
// files (the certificate) when not "".
func printWritten(w io.Writer, r *reportFlags, other ...string) {
	var paths []string
	for _, p := range append([]*string{r.json, r.junit, r.md, r.html}, ptrs(other)...) {
		if *p != "" {
			paths = append(paths, *p)
		}
	}
	if len(paths) == 0 {
		return
	}
	fmt.Fprintln(w, "\nReports written:")
	for _, p := range paths {
		fmt.Fprintf(w, "  %s\n", termsafe.Line(p))
	}
}

// ptrs returns a pointer to each string of s.
func ptrs(s []string) []*string {
	out := make([]*string, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}
