package variants

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRewriteReversesMembersInResultAndContent(t *testing.T) {
	rw := &Rewrite{Reverse: true}
	in := `{"ok":true,"content":"{\"a\":1,\"b\":[{\"x\":\"<&>\",\"y\":null}]}","summary":"s"}`
	out, err := rw.apply([]byte(in), "")
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
	out, err := rw.apply([]byte(in), "")
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
	out, err := rw.apply([]byte(in), "")
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

func TestCommandVariantsRewriteFromTheSpillFiles(t *testing.T) {
	store := t.TempDir()
	if err := os.MkdirAll(filepath.Join(store, "spill"), 0o700); err != nil {
		t.Fatal(err)
	}
	full := strings.Repeat("0123456789", 100)
	for _, f := range []struct{ name, data string }{{"c-1.stdout", full}, {"c-1.stderr", "err\n"}} {
		if err := os.WriteFile(filepath.Join(store, "spill", f.name), []byte(f.data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	in := `{"ok":true,"canonicalToolId":"command.run","content":"{\"stdout\":\"` + full[:200] + `\",\"stderr\":\"err\\n\",\"truncated\":true}","artifactRef":"conform-spill://c-1.stdout,c-1.stderr"}`
	out, err := (&Rewrite{Command: headTail}).apply([]byte(in), store)
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ Content string }
	var c struct{ Stdout, Stderr string }
	if json.Unmarshal(out, &res) != nil || json.Unmarshal([]byte(res.Content), &c) != nil {
		t.Fatalf("apply = %s", out)
	}
	if !strings.HasPrefix(c.Stdout, full[:50]) || !strings.HasSuffix(c.Stdout, full[len(full)-50:]) || !strings.Contains(c.Stdout, "bytes omitted") || c.Stderr != "err\n" {
		t.Errorf("head-tail stdout %q, stderr %q", c.Stdout, c.Stderr)
	}
	out, err = (&Rewrite{Command: oneSpill}).apply([]byte(in), store)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"artifactRef":"conform-spill://c-1.streams"`) {
		t.Errorf("one-spill-file = %s", out)
	}
	b, err := os.ReadFile(filepath.Join(store, "spill", "c-1.streams"))
	if err != nil || !strings.Contains(string(b), full) || !strings.Contains(string(b), "err\n") {
		t.Errorf("framed spill %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(store, "spill", "c-1.stdout")); err == nil {
		t.Error("the per-stream spill file was kept")
	}
}

func TestRewordKeepsPinnedExactStrings(t *testing.T) {
	for _, s := range []string{
		"Required command containment is unavailable (bwrap/missing): no backend",
		"Tool 'search_web' is not active in this turn.",
	} {
		if got := reword(s); got != s {
			t.Errorf("reword(%q) = %q; a pinned exact string must be kept", s, got)
		}
	}
	if got := reword("Git diff exited with 0."); got != "Host note: 0. with exited diff Git" {
		t.Errorf("reword = %q", got)
	}
}
