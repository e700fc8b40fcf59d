package matrix

import "testing"

func TestRegistryIsConsistent(t *testing.T) {
	for _, err := range RegistrationErrors() {
		t.Error(err)
	}
	items := Items()
	if len(items) != 54 {
		t.Fatalf("the matrix has %d items, want 54", len(items))
	}
	seenNames := map[string]int{}
	for i, it := range items {
		if it.ID != i+1 {
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
