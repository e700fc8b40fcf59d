package kit

import (
	"strings"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/internal/rapidtest"
	"pgregory.net/rapid"
)

// TestMinimalCaseIsCompact checks that a property failure's reason is
// rapid's shrunk case — each draw and the failure, long values cut — and
// not rapid's log: no repeated failure, no -rapid.seed hint.
func TestMinimalCaseIsCompact(t *testing.T) {
	blob := strings.Repeat(`{"member":"value"},`, 600)
	failed, log := rapidtest.Check("item39/compact", 5*time.Second, func(t *rapid.T) {
		n := rapid.IntRange(0, 100).Draw(t, "offset")
		rapid.Just(blob).Draw(t, "document")
		if n > 10 {
			t.Fatalf("store/get returned other bytes\n put %s\n got %s", blob, blob+"x")
		}
	})
	if !failed {
		t.Fatal("the property did not fail")
	}
	got := minimalCase(log)
	if len(got) > 2500 {
		t.Errorf("the reason is %d bytes (rapid's log %d): want the minimal case, cut:\n%s", len(got), len(log), got)
	}
	for _, want := range []string{"minimal failing case", "\n  offset = 11\n", "\n  document = ", "more characters)", "failure:\n  store/get returned other bytes"} {
		if !strings.Contains(got, want) {
			t.Errorf("the reason lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "-rapid.seed") || strings.Count(got, "store/get returned other bytes") != 1 {
		t.Errorf("the reason repeats rapid's header or its -rapid.seed hint:\n%s", got)
	}
}

// TestJSONDiffShowsWhatDiffers checks that a document comparison shows the
// differing value, the member order, or where the text differs, not both
// documents whole.
func TestJSONDiffShowsWhatDiffers(t *testing.T) {
	long := strings.Repeat("x", 5000)
	want := []byte(`{"a":"` + long + `","b":{"c":1,"d":"same"}}`)
	got := []byte(`{"a":"` + long + `","b":{"c":2,"d":"same"}}`)
	d := jsonDiff(want, got)
	if !strings.Contains(d, "-want +got") || !strings.Contains(d, "1") || !strings.Contains(d, "2") || len(d) > 1500 {
		t.Errorf("a changed value: %s", d)
	}
	if d := jsonDiff([]byte(`{"a":1,"b":2}`), []byte(`{"b":2,"a":1}`)); !strings.Contains(d, "members in another order: want a,b, got b,a") {
		t.Errorf("reordered members: %s", d)
	}
	if d := jsonDiff([]byte(`{"a":"<"}`), []byte(`{"a":"\u003c"}`)); !strings.Contains(d, "same values in other text, from byte 6") {
		t.Errorf("other escapes: %s", d)
	}
	if d := jsonDiff(want, []byte(`{"a":`)); !strings.Contains(d, "not JSON") {
		t.Errorf("a document that is not JSON: %s", d)
	}
}
