package matrix

import (
	"context"
	"errors"
	"strings"
	"testing"

	toolcatalog "github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/matrix/kit"
)

func TestRegistryIsConsistent(t *testing.T) {
	for _, err := range RegistrationErrors() {
		t.Error(err)
	}
	items := Items()
	seed := 0
	for _, it := range items {
		if it.ID <= SeedItems {
			seed++
		}
	}
	if seed != SeedItems {
		t.Fatalf("the matrix has %d seed items, want %d", seed, SeedItems)
	}
	seenNames := map[string]int{}
	research, format := 0, 0
	for i, it := range items {
		if want := i + 1; it.ID > FormatBase {
			format++
			if want = FormatBase + format; it.ID != want {
				t.Errorf("project-format item at position %d has ID %d, want %d (%s)", i+1, it.ID, want, RefOf(want))
			}
		} else if i >= SeedItems {
			research++
			want = ExtensionBase + research
			if it.ID != want {
				t.Errorf("extension item at position %d has ID %d, want %d (R%d)", i+1, it.ID, want, research)
			}
		} else if it.ID != want {
			t.Errorf("item at position %d has ID %d", i+1, it.ID)
		}
		if !validArea(it.Area) || it.Title == "" || it.Guarantee == "" || it.Name == "" {
			t.Errorf("item %d is missing metadata: %+v", it.ID, it)
		}
		if prev, dup := seenNames[it.Name]; dup {
			t.Errorf("items %d and %d share the name %q", prev, it.ID, it.Name)
		}
		seenNames[it.Name] = it.ID
	}
}

func TestLabelFilter(t *testing.T) {
	got := labelFilter(Config{Only: []int{1, 13}, Area: "workspace"})
	want := "item: containsAny {1,13} && area: containsAny {workspace}"
	if got != want {
		t.Errorf("labelFilter = %q, want %q", got, want)
	}
}

func TestItemTraitsAreKnown(t *testing.T) {
	for _, it := range Items() {
		switch it.Scope {
		case ScopeHost, ScopeCore, ScopeBoth:
		default:
			t.Errorf("item %d has scope %q", it.ID, it.Scope)
		}
		for _, k := range it.Guarantees {
			if _, ok := guaranteeByKey(k); !ok {
				t.Errorf("item %d names guarantee %q, which is not a sentence of Required host guarantees", it.ID, k)
			}
		}
		for _, id := range it.Tools {
			if _, ok := catalogIDs()[id]; !ok {
				t.Errorf("item %d needs tool %q, which is not in the catalog", it.ID, id)
			}
		}
	}
	if n := len(Guarantees()); n != 56 {
		t.Errorf("%d guarantee sentences, want the seed's 56", n)
	}
}

func TestEveryRunnableItemHasScenarios(t *testing.T) {
	for _, it := range Items() {
		if !it.Runnable {
			continue
		}
		if it.ID > FormatBase && len(Checks(it.ID)) > 0 {
			continue // the project-format items' checks are Go specs that write their own fixtures
		}
		if names, err := kit.ScenarioFiles(it.ScenarioDir()); err != nil || len(names) == 0 {
			t.Errorf("item %d has no scenario files in fixtures/matrix/%s", it.ID, it.ScenarioDir())
		}
	}
}

// catalogIDs is the set of canonical tool IDs of the catalog.
func catalogIDs() map[string]bool {
	ids := map[string]bool{}
	for _, d := range toolcatalog.ForHost().Tools {
		ids[d.ID] = true
	}
	for _, d := range toolcatalog.Extensions(toolcatalog.ExtensionFlags()) {
		ids[d.ID] = true
	}
	return ids
}

// TestRunWithoutItemsSaysWhatToImport: a program that forgot the items
// package is told so, instead of certifying nothing.
func TestRunWithoutItemsSaysWhatToImport(t *testing.T) {
	saved := catalog
	catalog = map[int]Item{}
	t.Cleanup(func() { catalog = saved })
	if _, err := Run(context.Background(), Config{Host: "reference"}); !errors.Is(err, errNoItems) {
		t.Errorf("Run with no registered item = %v, want %v", err, errNoItems)
	}
}

// TestEveryItemLivesInItsAreaFile: an item's metadata and body are
// registered together in the file of package matrix/items named for its
// area, so one file says everything about it.
func TestEveryItemLivesInItsAreaFile(t *testing.T) {
	for _, it := range Items() {
		if want := "matrix/items/" + it.Area + ".go:"; !strings.HasPrefix(it.Source, want) {
			t.Errorf("item %d (area %s) is registered at %q, want in %s", it.ID, it.Area, it.Source, strings.TrimSuffix(want, ":"))
		}
	}
}
