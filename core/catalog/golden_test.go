package catalog_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/google/go-cmp/cmp"

	"github.com/galaxy-stack/conform/core/catalog"
)

var update = flag.Bool("update", false, "rewrite core/catalog/testdata/table.golden.md from the built catalog; review the diff against CONTRACTS §6.2 and §6.3 before committing")

const goldenTable = "testdata/table.golden.md"

// renderTable writes the catalog table in the layout of CONTRACTS §6.2,
// with the §6.3 limits as extra columns.
func renderTable(rows []catalog.Row) string {
	var b strings.Builder
	b.WriteString("| # | Canonical ID | Model name | Category / mutability | Risk | Transport | Boot/Lazy | Required inputs | Optional inputs | Idempotency | Permissions | timeoutMs | maxOutputBytes | maxOutputTokens | Pagination | Cancellation |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for i, r := range rows {
		boot := "lazy"
		if r.Activation == catalog.ActivationBootstrap {
			boot = "boot"
		}
		fmt.Fprintf(&b, "| %d | `%s` | `%s` | %s / %s | %s | %s | %s | %s | %s | %s | %s | %d | %d | %d | %t | %t |\n",
			i+1, r.ID, r.ModelName, r.Category, r.Mutability, r.Risk, r.Transport, boot,
			strings.Join(r.RequiredInputs, ", "), strings.Join(r.OptionalInputs, ", "), r.Idempotency,
			strings.Join(r.Permissions, ", "), r.TimeoutMs, r.MaxOutputBytes, r.MaxOutputTokens, r.Pagination, r.Cancellation)
	}
	return b.String()
}

var _ = Describe("the catalog table", func() {
	It("matches the golden CONTRACTS §6.2 table", func() {
		got := renderTable(catalog.Table())
		if *update {
			Expect(os.MkdirAll(filepath.Dir(goldenTable), 0o755)).To(Succeed())
			Expect(os.WriteFile(goldenTable, []byte(got), 0o644)).To(Succeed())
		}
		want, err := os.ReadFile(goldenTable)
		Expect(err).NotTo(HaveOccurred(), "run `go test ./core/catalog -update` to create it")
		Expect(got).To(Equal(string(want)), "catalog table differs from %s (-want +got):\n%s\nTo update, run: go test ./core/catalog -update", goldenTable, cmp.Diff(string(want), got))
	})

	It("catches a changed catalog", func() {
		ds := catalog.Core()
		ds[6].EnabledByDefault = false // git.exec lazy, as in the older catalog
		Expect(renderTable(catalog.TableOf(ds))).NotTo(Equal(renderTable(catalog.Table())))
	})
})
