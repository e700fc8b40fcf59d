package jsonrpc

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/galaxy-stack/conform/hosts/wire"
	"pgregory.net/rapid"
)

// anyValue draws a value as a handler or a caller hands one to
// json.Marshal: strings with HTML characters, line separators, escapes
// and bytes that are not UTF-8, numbers, raw JSON with spaces in it, and
// nesting.
func anyValue(t *rapid.T, depth int) any {
	kinds := 5
	if depth > 0 {
		kinds = 7
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
	case 0:
		return rapid.SampledFrom([]string{"", "plain", "a<b>&c", "line\u2028sep\u2029", "q\"\\/\n\t", "\xff\xc3", "é中😀", "\x00\x1f"}).Draw(t, "str") +
			rapid.String().Draw(t, "more")
	case 1:
		f := rapid.Float64().Draw(t, "num")
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0
		}
		return f
	case 2:
		return rapid.Int64().Draw(t, "int")
	case 3:
		return rapid.SampledFrom([]any{nil, true, false}).Draw(t, "literal")
	case 4:
		return json.RawMessage(rapid.SampledFrom([]string{`{ "a" : [1, 2] }`, ` "x<y" `, "[\n]", `"\u2028"`, `1e3`}).Draw(t, "raw"))
	case 5:
		n := rapid.IntRange(0, 3).Draw(t, "items")
		a := make([]any, n)
		for i := range a {
			a[i] = anyValue(t, depth-1)
		}
		return a
	}
	n := rapid.IntRange(0, 3).Draw(t, "members")
	m := map[string]any{}
	for range n {
		m[rapid.SampledFrom([]string{"k", "<k>", "k\u2028", "\xff"}).Draw(t, "key")+rapid.String().Draw(t, "key-more")] = anyValue(t, depth-1)
	}
	return m
}

// TestEncodeMarshaledMatchesEncodeMessage checks that the messages a Conn
// sends, whose params or result json.Marshal produced, are encoded byte
// for byte as EncodeMessage encodes them, with the same error, whatever
// their id and method hold.
func TestEncodeMarshaledMatchesEncodeMessage(t *testing.T) {
	ids := []string{"", "1", "-7", "0", "01", "-0", "1.5", "1e3", `"a"`, `"a<b"`, `"a b"`, `"\u00e9"`, `"é"`, `""`, ` 1`, `{}`, `[1, 2]`, `"`, `-`, `x`, `"a\"`}
	methods := []string{"", "tool/execute", "$/cancelRequest", "a<b", "é", "a\"b", "a\\b", "tab\t", "\xff"}
	rapid.Check(t, func(t *rapid.T) {
		raw, err := json.Marshal(anyValue(t, 3))
		if err != nil {
			t.Fatal(err)
		}
		var id json.RawMessage
		if s := rapid.SampledFrom(ids).Draw(t, "id"); s != "" || rapid.Bool().Draw(t, "empty-id") {
			id = json.RawMessage(s)
		}
		if rapid.Bool().Draw(t, "no-raw") {
			raw = nil
		}
		var m Message
		switch rapid.IntRange(0, 2).Draw(t, "message") {
		case 0:
			m = &Request{ID: id, Method: rapid.SampledFrom(methods).Draw(t, "method"), Params: raw}
		case 1:
			m = &Response{ID: id, Result: raw}
		default:
			m = &Response{ID: id, Error: &wire.Error{Code: -32602, Message: "bad <params>", Data: anyValue(t, 1)}}
		}
		got, gotErr := encodeMarshaled(m)
		want, wantErr := EncodeMessage(m)
		if string(got) != string(want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%#v: encoded %q, %v; EncodeMessage %q, %v", m, got, gotErr, want, wantErr)
		}
	})
}
