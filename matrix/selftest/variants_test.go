package selftest

import (
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/variants"
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
