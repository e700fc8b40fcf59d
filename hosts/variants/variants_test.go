package variants

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRewriteReversesMembersInResultAndContent(t *testing.T) {
	rw := &Rewrite{Reverse: true}
	in := `{"ok":true,"content":"{\"a\":1,\"b\":[{\"x\":\"<&>\",\"y\":null}]}","summary":"s"}`
	out, err := rw.apply([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"summary":"s","content":"{\"b\":[{\"y\":null,\"x\":\"<&>\"}],\"a\":1}","ok":true}`
	if string(out) != want {
		t.Errorf("apply = %s\nwant    %s", out, want)
	}
	var a, b any
	if json.Unmarshal([]byte(in), &a) != nil || json.Unmarshal(out, &b) != nil {
		t.Fatal("not JSON")
	}
}

func TestRewriteRewordsFreeTextOnly(t *testing.T) {
	rw := &Rewrite{Text: reword}
	in := `{"ok":false,"content":"{\"warnings\":[\"w one\"],\"path\":\"a.txt\"}","summary":"done.","error":{"code":"CONFLICT","message":"no match"}}`
	out, err := rw.apply([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{`"summary":"Host note: done."`, `"message":"Host note: match no"`, `\"warnings\":[\"Host note: one w\"]`, `\"path\":\"a.txt\"`, `"code":"CONFLICT"`} {
		if !strings.Contains(s, want) {
			t.Errorf("apply = %s, lacks %s", s, want)
		}
	}
}

func TestContentThatIsNotJSONIsKept(t *testing.T) {
	rw := &Rewrite{Reverse: true, Text: reword}
	in := `{"content":"plain {text","ok":true}`
	out, err := rw.apply([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"ok":true,"content":"plain {text"}`; string(out) != want {
		t.Errorf("apply = %s, want %s", out, want)
	}
}

func TestEveryVariantHasANameChoiceAndDescription(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range All() {
		if v.Name == "" || v.Choice == "" || v.Description == "" || seen[v.Name] {
			t.Errorf("variant %+v: needs a unique name, a choice and a description", v)
		}
		seen[v.Name] = true
		if got, ok := Lookup(v.Name); !ok || got.Name != v.Name {
			t.Errorf("Lookup(%q) = %v, %v", v.Name, got.Name, ok)
		}
		if v.Handler() == nil {
			t.Errorf("variant %s has no handler", v.Name)
		}
	}
}
