package oracle

import (
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/matrix/fixture"
)

func contentFailures(w fixture.ExpectedToolResult, content string) []Failure {
	c := &checker{fx: &fixture.Fixture{File: "f.json"}, obs: &Observed{}, exp: &fixture.Expected{}}
	c.contentJSON("expected.toolResults[0].", 1, w, content)
	return c.out
}

func TestContentIsComparedStructurallyNotByMemberOrder(t *testing.T) {
	w := fixture.ExpectedToolResult{
		ContentValues: map[string]any{"/truncated": false, "/scan/maxDepth": float64(20), "/commands": map[string]any{}},
		ContentHas:    map[string][]any{"/entries": {map[string]any{"kind": "other", "path": "a/b"}}},
	}
	for _, content := range []string{
		`{"entries":[{"kind":"file","name":"x","path":"x"},{"kind":"other","name":"b","path":"a/b"}],"truncated":false,"scan":{"maxDepth":20},"commands":{}}`,
		`{ "commands" : {}, "scan": {"maxDepth": 2e1}, "truncated": false, "entries": [{"path": "a\/b", "name": "b", "kind": "other", "size": 3}] }`,
	} {
		if got := contentFailures(w, content); len(got) != 0 {
			t.Errorf("content %s: failures %+v, want none", content, got)
		}
	}
}

func TestContentMismatchesNameThePointerAndBothValues(t *testing.T) {
	w := fixture.ExpectedToolResult{
		ContentValues: map[string]any{"/truncated": false, "/missing": "x", "/commands": map[string]any{}},
		ContentHas:    map[string][]any{"/entries": {map[string]any{"kind": "symlink", "path": "l"}}, "/truncated": {true}},
	}
	got := contentFailures(w, `{"truncated":true,"commands":{"test":"go test"},"entries":[{"kind":"file","path":"l"}]}`)
	var msgs []string
	for _, f := range got {
		msgs = append(msgs, f.Assertion+": "+f.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		`contentValues["/truncated"]: Tool result 1 content at /truncated: expected false, received true`,
		`contentValues["/missing"]: Tool result 1 content has no value at /missing`,
		`contentValues["/commands"]: Tool result 1 content at /commands: expected {}, received {"test":"go test"}`,
		`contentHas["/entries"][0]: Tool result 1 content: no element of /entries matches {"kind":"symlink","path":"l"}`,
		`contentHas["/truncated"]: Tool result 1 content has no array at /truncated`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("failures lack %q:\n%s", want, all)
		}
	}
	if len(got) != 5 {
		t.Errorf("%d failures, want 5:\n%s", len(got), all)
	}
}

func TestContentThatIsNotJSONFailsOnce(t *testing.T) {
	got := contentFailures(fixture.ExpectedToolResult{ContentValues: map[string]any{"/a": 1.0}}, "not json")
	if len(got) != 1 || !strings.Contains(got[0].Message, "is not JSON") {
		t.Errorf("failures %+v", got)
	}
}

func TestPointerEscapesAndIndexes(t *testing.T) {
	doc := map[string]any{"a/b": map[string]any{"m~n": []any{"x", "y"}}}
	if v, ok := pointer(doc, "/a~1b/m~0n/1"); !ok || v != "y" {
		t.Errorf("pointer = %v, %v", v, ok)
	}
	for _, bad := range []string{"/a~1b/m~0n/2", "/a~1b/m~0n/01", "a", "/nope"} {
		if _, ok := pointer(doc, bad); ok {
			t.Errorf("pointer %q resolved", bad)
		}
	}
}
