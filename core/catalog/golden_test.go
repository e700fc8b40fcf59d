package catalog_test

import (
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/internal/goldenfile"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

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
		Expect(goldenfile.Check(goldenTable, renderTable(catalog.Table()), "go test ./core/catalog -update")).To(Succeed())
	})

	It("catches a changed catalog", func() {
		ds := catalog.Core()
		ds[6].EnabledByDefault = false // git.exec lazy, as in the older catalog
		Expect(renderTable(catalog.TableOf(ds))).NotTo(Equal(renderTable(catalog.Table())))
	})
})
