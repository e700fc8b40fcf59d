package matrix

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
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
	for _, it := range Items() {
		state := "planned"
		if it.Runnable {
			state = "runnable"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", it.Ref(), it.Area, it.Scope, state, it.Title, it.Guarantee,
			strings.Join(it.Tools, ", "), strings.Join(it.Guarantees, ", "))
	}
	b.WriteString("\n## Required host guarantees\n\nEvery sentence of the seed's \"Required host guarantees\", with the items that check it (`conform matrix --guarantees`).\n\n")
	b.WriteString("| key | section | sentence | items |\n| --- | --- | --- | --- |\n")
	for _, tr := range Traces() {
		ids := make([]string, len(tr.Items))
		for i, id := range tr.Items {
			ids[i] = RefOf(id)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", tr.Key, tr.Section, strings.ReplaceAll(tr.Text, "|", "\\|"), strings.Join(ids, ", "))
	}
	return b.Bytes()
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
