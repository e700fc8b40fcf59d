package wire_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"
)

// checkSameValidation fails t when Validate, which parses raw into a view
// tree, and the decoding of jsonschema.UnmarshalJSON give raw different
// trees or the schema name different verdicts.
func checkSameValidation(t interface {
	Helper()
	Fatalf(format string, args ...any)
}, name string, raw []byte) {
	t.Helper()
	if json.Valid(raw) {
		want, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%q: json.Valid accepts it, jsonschema.UnmarshalJSON says %v", clip(raw), err)
		}
		if d := sameTree(want, wire.ViewDocument(raw), ""); d != "" {
			t.Fatalf("%q: trees differ at %s", clip(raw), d)
		}
	}
	want, got := wire.ValidateDecoded(name, raw), wire.Validate(name, raw)
	if (want == nil) != (got == nil) || (want != nil && *want != *got) {
		t.Fatalf("%s on %q: decoded verdict %+v, view verdict %+v", name, clip(raw), want, got)
	}
}

// schemaWords collects what a drawn document should be made of to reach
// every branch of the published schemas: their property names and their
// enum and const values, as JSON texts.
func schemaWords(t *testing.T) (names []string, values []string) {
	seenN, seenV := map[string]bool{}, map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for k := range props {
					seenN[k] = true
				}
			}
			for _, k := range []string{"enum", "const"} {
				if e, ok := v[k]; ok {
					list, isList := e.([]any)
					if !isList {
						list = []any{e}
					}
					for _, x := range list {
						b, _ := json.Marshal(x)
						seenV[string(b)] = true
					}
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	for _, n := range wire.SchemaNames() {
		text, err := wire.SchemaText(n)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(text, &doc); err != nil {
			t.Fatal(err)
		}
		walk(doc)
	}
	for k := range seenN {
		names = append(names, k)
	}
	for k := range seenV {
		values = append(values, k)
	}
	sort.Strings(names)
	sort.Strings(values)
	return names, values
}

// numberEdges are numbers whose verdict a float64 could change: ones
// that round to an integer or to a bound, ones too large or too small
// for a float64, -0, and integers past 2^53.
var numberEdges = []string{
	"0", "-0", "1", "-1", "0.5", "1.0", "1e0", "1E+2", "0.99999999999999999999", "1.0000000000000000001",
	"0.00000000000000000001", "1e400", "-1e400", "1e-400", "9007199254740993", "18446744073709551617",
	"123456789012345678901234567890", "2147483648", "-9223372036854775809", "4.9e-324",
}

// TestValidateViewMatchesDecoded checks, on random documents drawn for
// every published schema (the schema's own members with values of every
// type, enum values, escaped names, unknown members, numbers a float64
// would round, text that is not JSON), that Validate gives exactly the
// verdict the decoding of jsonschema.UnmarshalJSON gives.
func TestValidateViewMatchesDecoded(t *testing.T) {
	schemaNames := wire.SchemaNames()
	names, values := schemaWords(t)
	rapid.Check(t, func(t *rapid.T) {
		g := jsonGen{t: t, bad: rapid.IntRange(0, 9).Draw(t, "bad") == 0}
		name := rapid.SampledFrom(schemaNames).Draw(t, "schema")
		var value func(depth int) string
		object := func(depth int) string {
			n := rapid.IntRange(0, 8).Draw(t, "members")
			members := make([]string, n)
			for i := range members {
				key := g.str("unknown")
				switch rapid.IntRange(0, 5).Draw(t, "key-kind") {
				case 0, 1, 2, 3:
					key = `"` + rapid.SampledFrom(names).Draw(t, "key") + `"`
				case 4: // a known name, escaped
					k := rapid.SampledFrom(names).Draw(t, "key")
					key = fmt.Sprintf(`"\u%04x%s"`, k[0], k[1:])
				}
				members[i] = g.space() + key + ":" + g.space() + value(depth) + g.space()
			}
			return "{" + strings.Join(members, ",") + "}"
		}
		value = func(depth int) string {
			switch rapid.IntRange(0, 7).Draw(t, "kind") {
			case 0:
				return rapid.SampledFrom(values).Draw(t, "enum")
			case 1:
				return rapid.SampledFrom(numberEdges).Draw(t, "edge")
			case 2:
				return g.number()
			case 3:
				if depth > 0 {
					return object(depth - 1)
				}
			case 4:
				if depth > 0 {
					n := rapid.IntRange(0, 3).Draw(t, "items")
					items := make([]string, n)
					for i := range items {
						items[i] = value(depth - 1)
					}
					return "[" + strings.Join(items, ",") + "]"
				}
			case 5:
				return rapid.SampledFrom([]string{"true", "false", "null", `""`, `"x"`}).Draw(t, "literal")
			}
			return g.str("str")
		}
		text := object(3)
		if rapid.IntRange(0, 19).Draw(t, "top") == 0 {
			text = value(2)
		}
		text = g.space() + text + g.space()
		if g.bad && rapid.Bool().Draw(t, "cut") {
			text = text[:rapid.IntRange(0, len(text)).Draw(t, "at")]
		}
		checkSameValidation(t, name, []byte(text))
	})
}

// TestValidateViewMatchesDecodedOnEdges pins the documents the random
// check might miss: numbers a float64 would round past a bound or to an
// integer, text that is not JSON or not one value, and escaped names.
func TestValidateViewMatchesDecodedOnEdges(t *testing.T) {
	exec := func(timeout string) string {
		return `{"callId":"c","modelName":"read_file","arguments":{},"timeoutMs":` + timeout +
			`,"context":{"runId":"r","mode":"auto"}}`
	}
	for _, c := range []struct{ name, text string }{
		{"tool-execute.params.json", exec("1")},
		{"tool-execute.params.json", exec("0.99999999999999999999")},
		{"tool-execute.params.json", exec("1.0000000000000000001")},
		{"tool-execute.params.json", exec("1e400")},
		{"tool-execute.params.json", exec("-0")},
		{"tool-execute.params.json", exec("9007199254740993")},
		{"tool-execute.params.json", exec(`"1"`)},
		{"tool-execute.params.json", `{"c\u0061llId":"c"}`},
		{"cancel-request.params.json", `{"id":1.5}`},
		{"cancel-request.params.json", `{"id":1e400}`},
		{"cancel-request.params.json", `{"id":12345678901234567890123.0000000000001}`},
		{"initialize.params.json", `{"catalog":{"schemaVersion":"1","definitionBudget":0.99999999999999999999,"tools":[]}}`},
		{"shutdown.params.json", ``},
		{"shutdown.params.json", ` `},
		{"shutdown.params.json", `{}`},
		{"shutdown.params.json", `{} {}`},
		{"shutdown.params.json", `{}x`},
		{"shutdown.params.json", `{"a":1`},
		{"shutdown.params.json", `[]`},
		{"shutdown.params.json", `"\ud800"`},
		{"no-such.json", `{}`},
	} {
		checkSameValidation(t, c.name, []byte(c.text))
	}
}
