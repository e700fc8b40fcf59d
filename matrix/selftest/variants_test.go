package selftest

import (
	"slices"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/variants"
	"github.com/galaxy-stack/conform/reports"
)

func TestAVariantAnItemFailsIsAProblem(t *testing.T) {
	vrs := []VariantResult{
		{Variant: Variant{Name: "ok"}, Status: Accepted, Ran: []int{1, 2}, FailedItems: []int{}},
		{Variant: Variant{Name: "bad"}, Status: Rejected, Ran: []int{1, 2}, FailedItems: []int{2}, Reasons: map[int]string{2: "summary lacks x"}},
		{Variant: Variant{Name: "broken"}, Status: Broken, Error: "no binary"},
	}
	got := variantProblems(vrs)
	if len(got) != 2 || !strings.Contains(got[0], "item 2 fails variant bad") || !strings.Contains(got[0], "summary lacks x") ||
		!strings.Contains(got[1], "variant broken could not be certified") {
		t.Errorf("variantProblems = %q", got)
	}
	doc := (&Result{Variants: vrs, Problems: got}).Document()
	if doc.SelfTest == nil || len(doc.SelfTest.Variants) != 3 || doc.SelfTest.Variants[1].FailedItems[0] != 2 {
		t.Errorf("document's acceptance matrix: %+v", doc.SelfTest)
	}
}

func TestVariantNamesSelectVariantsNotFaults(t *testing.T) {
	name := variants.Names()[0]
	if vs := selectVariants([]string{name}); len(vs) != 1 || vs[0].Name != name {
		t.Errorf("selectVariants([%s]) = %+v", name, vs)
	}
	fs, err := selectFaults([]string{name})
	if err != nil || len(fs) != 0 {
		t.Errorf("selectFaults([%s]) = %+v, %v; want no fault and no error", name, fs, err)
	}
	if vs := selectVariants([]string{"symlink-escape"}); len(vs) != 0 {
		t.Errorf("a mutant name selected variants %+v", vs)
	}
	if len(selectVariants(nil)) != len(variants.Names()) {
		t.Error("no names should select every variant")
	}
}

func TestOnlyFailuresNoCheckSpokeForAreCertifiedAgain(t *testing.T) {
	fail := func(id int, causes ...string) reports.Item {
		it := reports.Item{ID: id, Status: reports.Failed}
		for _, c := range causes {
			it.FailedChecks = append(it.FailedChecks, reports.FailedCheck{Check: "c", Cause: c})
		}
		return it
	}
	items := []reports.Item{
		{ID: 1, Status: reports.Passed},
		fail(2, reports.CauseDeadline),
		fail(3, reports.CauseDeadline, reports.CauseAssertion),
		fail(4, reports.CauseHost, reports.CauseHarness),
		fail(5, reports.CauseSchema),
		fail(6),
	}
	if got := recheck(items); !slices.Equal(got, []int{2, 4}) {
		t.Errorf("recheck = %v, want [2 4]: an assertion or schema failure is the check's verdict, and a failure that names no check is not retried", got)
	}
	merged := replaceItems(items, []reports.Item{{ID: 2, Status: reports.Passed}})
	if merged[1].Status != reports.Passed || items[1].Status != reports.Failed || len(merged) != len(items) {
		t.Errorf("replaceItems: got %+v from %+v", merged, items)
	}
}
