package matrix

import "testing"

func TestRefs(t *testing.T) {
	for _, c := range []struct {
		in   string
		id   int
		ref  string
		fail bool
	}{
		{in: "13", id: 13, ref: "13"},
		{in: " 54", id: 54, ref: "54"},
		{in: "R1", id: 101, ref: "R1"},
		{in: "r7", id: 107, ref: "R7"},
		{in: "PF01", id: 201, ref: "PF01"},
		{in: "pf16", id: 216, ref: "PF16"},
		{in: "PF3", id: 203, ref: "PF03"},
		{in: "PF0", fail: true},
		{in: "PF100", fail: true},
		{in: "R0", fail: true},
		{in: "R", fail: true},
		{in: "R100", fail: true},
		{in: "0", fail: true},
		{in: "x", fail: true},
	} {
		id, err := ParseRef(c.in)
		if c.fail {
			if err == nil {
				t.Errorf("ParseRef(%q) = %d, want an error", c.in, id)
			}
			continue
		}
		if err != nil || id != c.id {
			t.Errorf("ParseRef(%q) = %d, %v; want %d", c.in, id, err, c.id)
		}
		if got := RefOf(id); got != c.ref {
			t.Errorf("RefOf(%d) = %q, want %q", id, got, c.ref)
		}
	}
	for _, it := range Items() {
		if back, err := ParseRef(it.Ref()); err != nil || back != it.ID {
			t.Errorf("item %d: Ref %q parses to %d, %v", it.ID, it.Ref(), back, err)
		}
		if it.Area == "research" && it.ID <= ExtensionBase {
			t.Errorf("research item %d is numbered among the seed's items", it.ID)
		}
	}
}
