package toolfacts

import "testing"

func TestAllHoldsTheTwentyOneCoreTools(t *testing.T) {
	facts := All()
	if len(facts) != 21 {
		t.Fatalf("All() holds %d facts, want the 21 core tools", len(facts))
	}
	seen := map[string]bool{}
	for _, f := range facts {
		if f.ID == "" || f.ModelName == "" || seen[f.ID] {
			t.Errorf("fact %+v: an empty or repeated ID, or no model name", f)
		}
		seen[f.ID] = true
	}
}
