package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/selftest"
	"github.com/galaxy-stack/conform/reports"
)

var _ = register(def[selftestFlags]{
	Name:      "selftest",
	UsageLine: "conform selftest [--fault NAME,...] [--only 1,13] [--parallel N] [--timeout D] [--json] [--json-report F] [--junit-report F] [--md-report F] [--html-report F] | conform selftest --list [--json]",
	Short:     "show the matrix can fail, and fails only what the contract forbids: print the kill and acceptance matrices",
	Long: `Selftest shows that conform's matrix can fail. It certifies the reference host,
which must pass every runnable item, then each named fault against the items
that could catch it: every mutant of the reference host (conform host mutants)
and every core fault, a test-only switch in conform's bundled core runtime.
Each certification is a child conform certify process.

It first says what it is about to do (how many certifications, of how many
items, mutants, core faults and variants, and how many run at once), then
prints one line per certification as it finishes, numbered out of that total
("[3/41] killed mutant ..."), then the kill matrix (a row per
fault, a column per item; X where the item failed against the fault, . where
it ran and passed), the items that cannot fail (a host-scope item that kills
no mutant, a core-scope item that kills no core fault), the faults no
runnable item targets yet, and the "Required host guarantees" sentences no
runnable item checks.

Then it certifies every variant of the reference host (a permitted variation:
the reference host taking a choice the contract leaves to hosts the other way)
against every item and prints the acceptance matrix (a row per variant, ok
where the item passed it, X where it failed it). An item that fails a variant
checks more than the contract says, and fails the self-test. An item whose
failure no check spoke for (a deadline passed, the host died, the harness
failed) is certified against the variant once more, and that result counts.

--list lists the faults with the items that target them, then the variants.
--fault limits the run to some faults and variants, --only to some items. --json and --json-report give the
result document of kind "selftest": the reference certification as its items,
the kill matrix under "selfTest". Exit status: 0 the reference host passed, every targeted
fault was killed, every item can fail and every variant passed every item; 1 otherwise; 2 a wrong invocation.`,
	Flags: func(fs *flag.FlagSet) *selftestFlags {
		f := &selftestFlags{}
		fs.BoolVar(&f.list, "list", false, "list the faults and the items that target them")
		fs.StringVar(&f.faults, "fault", "", "comma-separated fault names to run (default: all)")
		fs.StringVar(&f.only, "only", "", "comma-separated item IDs to limit the self-test to (default: every runnable item)")
		fs.IntVar(&f.parallel, "parallel", runtime.NumCPU(), "certifications to run at once")
		fs.BoolVar(&f.asJSON, "json", false, "print the self-test document on standard output and nothing else")
		f.timeout = addTimeoutFlag(fs)
		f.reports = addReportFlags(fs, "the self-test's result document (the reference certification and the kill matrix)")
		return f
	},
	NoArgs: true,
	Run:    runSelftest,
})

// selftestFlags are the flags of conform selftest.
type selftestFlags struct {
	list     bool
	faults   string
	only     string
	parallel int
	asJSON   bool
	timeout  *time.Duration
	reports  *reportFlags
}

// runSelftest runs conform selftest.
func runSelftest(f *selftestFlags, _ []string, out streams) error {
	if f.list {
		return listFaults(out.stdout, f.asJSON)
	}
	exe, err := selfExecutable()
	if err != nil {
		return err
	}
	var names []string
	if f.faults != "" {
		names = strings.Split(f.faults, ",")
	}
	ids, err := parseIDs(f.only)
	if err != nil {
		return err
	}
	progress := out.stdout
	if f.asJSON {
		progress = out.stderr
	}
	if err := f.reports.check("selftest"); err != nil {
		return err
	}
	j, err := startJob(*f.timeout, true, out.stderr)
	if err != nil {
		return err
	}
	defer j.close()
	counted := &selftestProgress{w: progress}
	if total := printSelftestPlan(progress, names, ids, f.parallel); total > 0 {
		counted.total = total
	}
	res, err := selftest.Run(j.ctx, selftest.Options{Exe: exe, Faults: names, Items: ids, Parallel: f.parallel, Out: counted})
	if err != nil {
		if strings.HasPrefix(err.Error(), "unknown fault") || strings.HasPrefix(err.Error(), "no runnable item") {
			return usagef("selftest: %v", err)
		}
		if res == nil || j.ctx.Err() == nil {
			return err
		}
	}
	stopped := j.interrupted()
	if stopped != nil || j.timedOut() != nil {
		res.Passed, res.Interrupted = false, true
	}
	doc := res.Document()
	reports.Redact(doc)
	if err := f.reports.write(doc); err != nil {
		return err
	}
	if err := writeJSONOr(out.stdout, f.asJSON, doc, func() { printSelftest(out.stdout, res) }); err != nil {
		return err
	}
	switch {
	case stopped != nil:
		return stopped
	case j.timedOut() != nil:
		return j.timedOut()
	case !res.Passed:
		return errFailed
	}
	return nil
}

// selfExecutable returns the path of the running conform, to start child
// certifications with: the name it was started as, looked up on PATH when
// it has no directory.
func selfExecutable() (string, error) {
	name := os.Args[0]
	if !strings.ContainsRune(name, filepath.Separator) {
		return exec.LookPath(name)
	}
	return filepath.Abs(name)
}

// listFaults lists the faults, then the variants (which every item
// targets).
func listFaults(w io.Writer, asJSON bool) error {
	faults, vs := selftest.Faults(), selftest.Variants()
	if asJSON {
		all := make([]any, 0, len(faults)+len(vs))
		for _, f := range faults {
			all = append(all, f)
		}
		for _, v := range vs {
			all = append(all, v)
		}
		return writeJSON(w, all)
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tNAME\tTARGETS\tWHAT IT DOES WRONG (a variant: WHAT IT DOES OTHERWISE)")
	for _, f := range faults {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Kind, f.Name, joinInts(f.Targets), f.Description)
	}
	for _, v := range vs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", v.Kind, v.Name, "all", v.Description)
	}
	return tw.Flush()
}

// printSelftest prints the kill matrix, the items that cannot fail, the
// untargeted faults, the unchecked guarantees and the verdict.
func printSelftest(w io.Writer, res *selftest.Result) {
	var cols []int
	for _, ir := range res.Items {
		cols = append(cols, ir.ID)
	}
	fmt.Fprintln(w, "\nkill matrix (X: the item killed the fault, failing on an assertion of a sentence it breaks; c: the item failed, but collaterally; .: it ran and passed)")
	tw := matrixTable(w, "fault", cols)
	var untargeted []string
	for _, fr := range res.Faults {
		if fr.Status == selftest.Untargeted {
			line := fmt.Sprintf("%s %s (targets %s)", fr.Kind, fr.Name, orNone(joinInts(fr.Targets)))
			if fr.Unreachable != "" {
				line = fmt.Sprintf("%s %s: no host scenario reaches it: %s", fr.Kind, fr.Name, fr.Unreachable)
			}
			untargeted = append(untargeted, line)
			continue
		}
		matrixRow(tw, fr.Name, cols, marks{{fr.KilledBy, "X"}, {fr.FailedItems, "c"}, {fr.Ran, "."}}.cell)
	}
	tw.Flush()
	printBySentence(w, res)
	printAcceptance(w, res, cols)
	var untestable []string
	for _, fr := range res.Faults {
		if fr.Status == selftest.Untestable {
			untestable = append(untestable, fmt.Sprintf("%s %s: %s", fr.Kind, fr.Name, fr.Error))
		}
	}
	if len(untestable) > 0 {
		fmt.Fprintf(w, "\nuntestable on this machine (%d):\n", len(untestable))
		for _, u := range untestable {
			fmt.Fprintf(w, "  %s\n", termsafe.String(u))
		}
	}
	if len(untargeted) > 0 {
		fmt.Fprintf(w, "\nnot yet targeted by a runnable item (%d):\n", len(untargeted))
		for _, u := range untargeted {
			fmt.Fprintf(w, "  %s\n", u)
		}
	}
	if len(res.Unchecked) > 0 {
		fmt.Fprintf(w, "\nguarantee sentences no runnable item checks yet (%d):\n", len(res.Unchecked))
		for _, g := range res.Unchecked {
			fmt.Fprintf(w, "  %s  %s\n", g.Key, g.Text)
		}
	}
	if res.Interrupted {
		fmt.Fprintln(w, "\nINTERRUPTED: the faults not certified are listed as error; nothing above claims more than what finished")
	}
	killed, collateral, controls := 0, 0, 0
	for _, fr := range res.Faults {
		switch {
		case fr.Kind == selftest.KindControl:
			// A control no selected item targets is counted as untargeted.
			if fr.Status != selftest.Untargeted {
				controls++
			}
		case fr.Status == selftest.Killed:
			killed++
		case fr.Status == selftest.Collateral:
			collateral++
		}
	}
	fmt.Fprintf(w, "\n%d of %d targeted faults killed by an attributed assertion, %d failed only collaterally, %d untargeted; %d controls; %d items\n",
		killed, len(res.Faults)-len(untargeted)-controls, collateral, len(untargeted), controls, len(res.Items))
	if res.Passed {
		fmt.Fprintln(w, "PASS selftest")
		return
	}
	for _, p := range res.Problems {
		fmt.Fprintf(w, "FAIL %s\n", termsafe.String(p))
	}
}

// printAcceptance prints the acceptance matrix: a row per variant, a
// column per item; ok where the item passed the variant, X where it failed
// it (an over-specified check).
func printAcceptance(w io.Writer, res *selftest.Result, cols []int) {
	if len(res.Variants) == 0 {
		return
	}
	fmt.Fprintln(w, "\nacceptance matrix (ok: the item passed the permitted variant; X: it failed it, an over-specified check)")
	tw := matrixTable(w, "variant", cols)
	accepted := 0
	for _, vr := range res.Variants {
		if vr.Status == selftest.Accepted {
			accepted++
		}
		m := marks{{vr.FailedItems, "X"}, {vr.Ran, "ok"}}
		if vr.Status == selftest.Broken {
			m = marks{{cols, "?"}}
		}
		matrixRow(tw, vr.Name, cols, m.cell)
	}
	tw.Flush()
	fmt.Fprintf(w, "%d of %d variants accepted by every item\n", accepted, len(res.Variants))
}

// marks are the marks of a matrix row's cells, the first that holds an
// item winning.
type marks []struct {
	items []int
	mark  string
}

// cell is the mark of item id's cell, "" when no mark holds it.
func (m marks) cell(id int) string {
	for _, k := range m {
		if slices.Contains(k.items, id) {
			return k.mark
		}
	}
	return ""
}

// matrixTable starts a self-test matrix on w: a tab writer holding the
// header row, first and then each item of cols.
func matrixTable(w io.Writer, first string, cols []int) *tabwriter.Writer {
	tw := tabwriter.NewWriter(w, 0, 8, 1, ' ', 0)
	matrixRow(tw, first, cols, matrix.RefOf)
	return tw
}

// matrixRow prints one row of a self-test matrix: name, then the cell of
// each item of cols.
func matrixRow(w io.Writer, name string, cols []int, cell func(id int) string) {
	fmt.Fprintf(w, "%s\t", name)
	for _, id := range cols {
		fmt.Fprintf(w, "%s\t", cell(id))
	}
	fmt.Fprintln(w)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// printSelftestPlan says what the self-test is about to do, before its
// first certification ends (a minute or more): how many items, faults and
// variants, and so how many certifications. It returns that number, 0 when
// a name of --fault is unknown (selftest.Run then refuses it).
func printSelftestPlan(w io.Writer, names []string, only []int, parallel int) int {
	items := map[int]bool{}
	for _, it := range matrix.Items() {
		if it.Runnable && (len(only) == 0 || slices.Contains(only, it.ID)) {
			items[it.ID] = true
		}
	}
	known := map[string]bool{}
	mutants, cores, untargeted := 0, 0, 0
	for _, f := range selftest.Faults() {
		known[f.Name] = true
		if len(names) > 0 && !slices.Contains(names, f.Name) {
			continue
		}
		targeted := slices.ContainsFunc(f.Targets, func(id int) bool { return items[id] })
		switch {
		case !targeted:
			untargeted++
		case f.Kind == selftest.KindCore:
			cores++
		default:
			mutants++
		}
	}
	variants := 0
	for _, v := range selftest.Variants() {
		known[v.Name] = true
		if len(names) == 0 || slices.Contains(names, v.Name) {
			variants++
		}
	}
	for _, n := range names {
		if !known[n] {
			return 0
		}
	}
	total := 1 + mutants + cores + variants
	fmt.Fprintf(w, "selftest: %d certifications, %d at once: the reference host against %d items, %d mutants and %d core faults against the items that target them (%d untargeted), %d variants against every item\n",
		total, max(parallel, 1), len(items), mutants, cores, untargeted, variants)
	return total
}

// selftestProgress numbers the lines selftest.Run writes, one per finished
// certification ("[3/41] killed mutant ...").
type selftestProgress struct {
	w     io.Writer
	total int

	mu   sync.Mutex
	done int
	rest []byte // a line not yet ended
}

func (p *selftestProgress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rest = append(p.rest, b...)
	for {
		i := bytes.IndexByte(p.rest, '\n')
		if i < 0 {
			return len(b), nil
		}
		line := string(p.rest[:i])
		p.rest = p.rest[i+1:]
		p.done++
		prefix := ""
		if p.total > 0 {
			prefix = fmt.Sprintf("[%d/%d] ", p.done, p.total)
		}
		if _, err := fmt.Fprintf(p.w, "%s%s\n", prefix, line); err != nil {
			return len(b), err
		}
	}
}
