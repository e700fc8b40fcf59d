package matrix

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"
)

var updateDoc = flag.Bool("update-doc", false, "rewrite matrix/MATRIX.md from the item registry")

// matrixDoc renders the checked-in listing of the matrix.
func matrixDoc() []byte {
	var b bytes.Buffer
	b.WriteString("# The host-conformance matrix\n\n")
	b.WriteString("Generated from the item registry by `go test ./matrix -run TestMatrixDoc -update-doc`; do not edit.\n")
	b.WriteString("`conform matrix` prints the same list. Planned items are listed but not yet run by `conform certify`.\n\n")
	b.WriteString("| ID | area | state | title | guarantee |\n| --- | --- | --- | --- | --- |\n")
	for _, it := range Items() {
		state := "planned"
		if it.Runnable {
			state = "runnable"
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s |\n", it.ID, it.Area, state, it.Title, it.Guarantee)
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
