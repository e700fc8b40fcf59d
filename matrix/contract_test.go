package matrix

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/internal/mdanchor"
	"github.com/galaxy-stack/conform/reports"
	"github.com/onsi/ginkgo/v2/types"
)

// TestEveryItemNamesItsContract checks that every catalog item's Contract
// is a file of the repository with a heading whose anchor it names.
func TestEveryItemNamesItsContract(t *testing.T) {
	anchors := map[string]map[string]bool{}
	for _, it := range Items() {
		file, anchor, ok := strings.Cut(it.Contract, "#")
		if it.Contract == "" || !ok || anchor == "" {
			t.Errorf("item %d: Contract %q is not \"<repository path>#<anchor>\"", it.ID, it.Contract)
			continue
		}
		if _, seen := anchors[file]; !seen {
			a, err := mdanchor.HeadingAnchors(filepath.Join("..", filepath.FromSlash(file)))
			if err != nil {
				t.Errorf("item %d: Contract names %s: %v", it.ID, file, err)
			}
			anchors[file] = a
		}
		if !anchors[file][anchor] {
			t.Errorf("item %d: %s has no heading with the anchor #%s", it.ID, file, anchor)
		}
	}
}

// TestEveryFailedItemEndsWithItsContract checks that collect ends a
// failed item's reason with its Contract once, a Go-spec item as well as
// a scenario item, and a passing item's reason without it.
func TestEveryFailedItemEndsWithItsContract(t *testing.T) {
	spec := func(id int, state types.SpecState, msg string) types.SpecReport {
		return types.SpecReport{LeafNodeLabels: []string{fmt.Sprintf("item:%d", id)}, State: state,
			Failure: types.Failure{Message: msg}}
	}
	goSpec, scenario := 105, 13 // item 105's specs are Go code; item 13's are scenarios
	tg := &target{items: map[int]*reports.Item{}}
	tg.collect(spec(goSpec, types.SpecStateFailed, "the page\nExpected\n    <bool>: false\nto be true"))
	tg.collect(spec(goSpec, types.SpecStatePassed, ""))
	tg.collect(spec(goSpec, types.SpecStateFailed, "the hash\nExpected\n    <string>: a\nto equal\n    <string>: b"))
	tg.collect(spec(scenario, types.SpecStateFailed, "fixtures/matrix/13-symlink-traversal/x.json: status failed"))
	tg.collect(spec(1, types.SpecStatePassed, ""))
	for _, c := range []struct {
		id   int
		want string
	}{
		{goSpec, "the page: expected true, got false\nthe hash: expected \"b\", got \"a\"\nsee " + registry[goSpec].Contract},
		{scenario, "fixtures/matrix/13-symlink-traversal/x.json: status failed\nsee hosts/wire/CONTRACTS.md#tool-error-codes"},
		{1, ""},
	} {
		if registry[c.id].Contract == "" {
			t.Fatalf("item %d has no Contract", c.id)
		}
		if got := tg.items[c.id].Reason; got != c.want {
			t.Errorf("item %d: reason\n%s\nwant\n%s", c.id, got, c.want)
		}
	}
}
