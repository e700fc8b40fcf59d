package matrix_test

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/fixtures"
	"github.com/galaxy-stack/conform/matrix"
	_ "github.com/galaxy-stack/conform/matrix/items"
	"github.com/galaxy-stack/conform/matrix/selftest"
)

var updateDoc = flag.Bool("update-doc", false, "rewrite matrix/MATRIX.md from the item registry")

// matrixDoc renders the checked-in listing of the matrix.
func matrixDoc() []byte {
	var b bytes.Buffer
	b.WriteString("# The host-conformance matrix\n\n")
	b.WriteString("Generated from the item registry by `go test ./matrix -run TestMatrixDoc -update-doc`; do not edit.\n")
	b.WriteString("`conform matrix` prints the same list. Planned items are listed but not yet run by `conform certify`.\n\n")
	b.WriteString("Scope: `host` items certify a duty of the host (some mutant of the reference host fails them), `core` items a rule of conform's bundled core exercised through the host (some named core fault fails them).\n\n")
	b.WriteString("| ID | area | scope | state | title | guarantee | tools | checks |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, it := range matrix.Items() {
		state := "planned"
		if it.Runnable {
			state = "runnable"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", it.Ref(), it.Area, it.Scope, state, it.Title, it.Guarantee,
			strings.Join(it.Tools, ", "), strings.Join(it.Guarantees, ", "))
	}
	writePlaces(&b)
	writeChecks(&b)
	b.WriteString("\n## Required host guarantees\n\nEvery sentence of the seed's \"Required host guarantees\", with the items that check it (`conform matrix --guarantees`).\n\n")
	b.WriteString("| key | section | sentence | items |\n| --- | --- | --- | --- |\n")
	checked, uncheckable := 0, 0
	for _, tr := range matrix.Traces() {
		ids := make([]string, len(tr.Items))
		for i, id := range tr.Items {
			ids[i] = matrix.RefOf(id)
		}
		cell := strings.Join(ids, ", ")
		switch {
		case tr.Checked():
			checked++
		case tr.Uncheckable != nil:
			uncheckable++
			cell = fmt.Sprintf("uncheckable through the protocol: %s ([why](../%s))", tr.Uncheckable.Reason, tr.Uncheckable.Documented)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", tr.Key, tr.Section, strings.ReplaceAll(tr.Text, "|", "\\|"), cell)
	}
	fmt.Fprintf(&b, "\n%d of %d sentences checked or explicitly uncheckable: %d checked by a runnable item, %d uncheckable through the protocol.\n",
		checked+uncheckable, len(matrix.Guarantees()), checked, uncheckable)
	return b.Bytes()
}

// writePlaces renders where each item lives: its spec (metadata and body,
// where matrix.DescribeItem or matrix.PlanItem registers it), its
// scenario folder, and the faults `conform selftest` expects it to catch.
func writePlaces(b *bytes.Buffer) {
	b.WriteString("\n## Where each item lives\n\n")
	b.WriteString("Each item's spec (its metadata beside its body, in the file of its area), its scenario folder, and the faults `conform selftest` certifies it against: the mutants of the reference host (`matrix/selftest/targets.go`) and the named core faults (`core/faults`) it is there to catch.\n\n")
	b.WriteString("| ID | name | spec | scenarios | mutants | core faults |\n| --- | --- | --- | --- | --- | --- |\n")
	mutants, cores := map[int][]string{}, map[int][]string{}
	for _, f := range selftest.Faults() {
		if f.Kind == selftest.KindControl {
			continue // a control breaks no guarantee and is never credited
		}
		for _, id := range f.Targets {
			if f.Kind == selftest.KindCore {
				cores[id] = append(cores[id], f.Name)
			} else {
				mutants[id] = append(mutants[id], f.Name)
			}
		}
	}
	for _, it := range matrix.Items() {
		spec := "—"
		if file, line, ok := strings.Cut(it.Source, ":"); ok {
			rel := strings.TrimPrefix(file, "matrix/")
			spec = fmt.Sprintf("[%s:%s](%s#L%s)", rel, line, rel, line)
		}
		scen := "—"
		if _, err := fs.Stat(fixtures.Matrix(), it.ScenarioDir()); err == nil {
			scen = fmt.Sprintf("[%s](../%s/%s)", it.ScenarioDir(), fixtures.MatrixDir, it.ScenarioDir())
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", it.Ref(), it.Name, spec, scen, names(mutants[it.ID]), names(cores[it.ID]))
	}
}

// writeChecks renders every check of every runnable item with the keys of
// the contract sentences it enforces (`conform matrix --json` lists the
// same): a failed check names these sentences in the report.
func writeChecks(b *bytes.Buffer) {
	b.WriteString("\n## Checks and the sentences they enforce\n\n")
	b.WriteString("Each check of each runnable item (a scenario file, or a spec written in Go), the keys of the contract sentences it enforces — a guarantee of the table below, or `L` and an item reference for the item's own matrix line — and where it is declared. `conform matrix --json` lists the same as `checks`.\n\n")
	b.WriteString("| ID | check | sentences | declared at |\n| --- | --- | --- | --- |\n")
	for _, it := range matrix.Items() {
		for _, c := range it.Checks {
			at := c.Source
			if file, line, ok := strings.Cut(c.Source, ":"); ok {
				rel := strings.TrimPrefix(file, "matrix/")
				at = fmt.Sprintf("[%s:%s](%s#L%s)", rel, line, rel, line)
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", it.Ref(), c.Name, strings.Join(c.Sentences, ", "), at)
		}
	}
}

// names lists fault names sorted, or "—".
func names(s []string) string {
	if len(s) == 0 {
		return "—"
	}
	return strings.Join(slices.Sorted(slices.Values(s)), ", ")
}

func TestMatrixDoc(t *testing.T) {
	want := matrixDoc()
	if *updateDoc {
		if err := os.WriteFile("MATRIX.md", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile("MATRIX.md")
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("matrix/MATRIX.md is stale. To update, run:\n\tgo test ./matrix -run TestMatrixDoc -update-doc")
	}
}
