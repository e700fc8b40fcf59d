package catalog_test

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/catalog"
)

// roundTrip is the registry document as the validator saw it before
// documentValue: encoded as JSON and decoded with numbers as json.Number.
func roundTrip(t *rapid.T, ds []catalog.Descriptor) (any, error) {
	if ds == nil {
		ds = []catalog.Descriptor{}
	}
	raw, err := json.Marshal(catalog.Document{SchemaVersion: catalog.SchemaVersion, Tools: ds})
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding the encoded document: %v", err)
	}
	return v, nil
}

// jsonish draws a schema-like value: the JSON types, Go integers, floats
// of every magnitude, []string, nil maps and slices.
func jsonish(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		kinds := 8
		if depth > 0 {
			kinds = 11
		}
		switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
		case 0:
			return nil
		case 1:
			return rapid.Bool().Draw(t, "bool")
		case 2:
			return rapid.SampledFrom([]string{"", "type", "object", "<&>", "\u2028", "é"}).Draw(t, "string")
		case 3:
			return rapid.Float64().Draw(t, "float")
		case 4:
			return rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1e-7, 1e-6, 1e20, 1e21, 123456789e15, 0.1, -2.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64}).Draw(t, "special")
		case 5:
			return rapid.Int().Draw(t, "int")
		case 6:
			return rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b"}), -1, 3).Draw(t, "strings")
		case 7:
			return rapid.Int64().Draw(t, "int64")
		case 8:
			return rapid.MapOfN(rapid.SampledFrom([]string{"type", "properties", "items", ""}), jsonish(depth-1), 0, 3).Draw(t, "map")
		case 9:
			return rapid.SliceOfN(jsonish(depth-1), 0, 3).Draw(t, "slice")
		default:
			return map[string]any(nil)
		}
	})
}

// TestDocumentValueIsTheDecodedText checks the registry document that
// CheckDocument validates against the JSON round trip it replaces: when
// documentValue takes the descriptors, its value is the decoded text,
// field for field, and CheckDocument answers as validating the text does,
// to the error message.
func TestDocumentValueIsTheDecodedText(t *testing.T) {
	if !catalog.JudgesSchemasByType() {
		t.Error("the registry schema no longer judges inputSchema and outputSchema by their type alone: CheckDocument builds their decoded form, the slower way")
	}
	core := catalog.Core()
	if _, ok := catalog.DocumentValue(core); !ok {
		t.Fatal("the core catalog is not taken by documentValue: the validator would encode it")
	}
	if _, ok := catalog.DocumentValue(catalog.ForHost().Tools); !ok {
		t.Fatal("the host catalog is not taken by documentValue")
	}
	strs := rapid.SampledFrom([]string{"", "x.y", "workspace.read", "read_file", "é\u2028", "core", "read", "safe", "text", "tools"})
	strSlice := rapid.SliceOfN(strs, -1, 3)
	rapid.Check(t, func(t *rapid.T) {
		ds := rapid.SliceOfN(rapid.SampledFrom(core), -1, 3).Draw(t, "descriptors")
		for i := range ds {
			d := ds[i].Clone()
			if rapid.Bool().Draw(t, "mutate") {
				d.ID, d.Title, d.Category = strs.Draw(t, "id"), strs.Draw(t, "title"), strs.Draw(t, "category")
				d.TimeoutMs, d.MaxOutputBytes = rapid.IntRange(-5, 700000).Draw(t, "timeout"), rapid.Int().Draw(t, "bytes")
				d.Permissions, d.Modalities.Produces = strSlice.Draw(t, "permissions"), strSlice.Draw(t, "produces")
				d.Modalities.RequiredModelCapabilities = strSlice.Draw(t, "capabilities")
				d.Source.ExtensionID, d.Source.ServerID = strs.Draw(t, "extension"), strs.Draw(t, "server")
				d.EnabledByDefault = rapid.Bool().Draw(t, "enabled")
			}
			if rapid.Bool().Draw(t, "schemas") {
				d.InputSchema = rapid.MapOfN(rapid.SampledFrom([]string{"type", "properties", "minimum"}), jsonish(3), 0, 4).Draw(t, "input")
				if rapid.Bool().Draw(t, "nilOutput") {
					d.OutputSchema = nil
				}
			}
			// Now and then a value the encoder replaces or refuses, which
			// documentValue must leave to it.
			switch rapid.IntRange(0, 15).Draw(t, "refused") {
			case 0:
				d.Description = "bad\xff"
			case 1:
				d.Permissions = []string{"a\xc3"}
			case 2:
				d.InputSchema = map[string]any{"minimum": math.NaN()}
			case 3:
				d.OutputSchema = map[string]any{"k\xff": 1}
			}
			ds[i] = d
		}
		if rapid.Bool().Draw(t, "nilList") && len(ds) == 0 {
			ds = nil
		}
		want, encErr := roundTrip(t, ds)
		if got, ok := catalog.DocumentValue(ds); ok {
			if encErr != nil {
				t.Fatalf("documentValue took a document the encoder refuses: %v", encErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("documentValue:\n%#v\nthe decoded text:\n%#v", got, want)
			}
		}
		if got, want := errText(catalog.CheckDocument(ds)), errText(catalog.CheckDocumentText(ds)); got != "tool registry document is invalid: "+want && !(got == "" && want == "") {
			t.Fatalf("CheckDocument: %q, through the text: %q", got, want)
		}
	})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestSchemasByTypeOnlyWhileTheRegistrySchemaSaysSo checks the guard of
// the shortcut that hands the validator a descriptor's own schema maps: it
// holds for the registry schema and fails as soon as the registry schema
// would look inside a tool's schema.
func TestSchemasByTypeOnlyWhileTheRegistrySchemaSaysSo(t *testing.T) {
	if !catalog.JudgesSchemasByTypeOf(catalog.RegistrySchema()) {
		t.Fatal("the registry schema is not judged to check tool schemas by type alone")
	}
	for name, change := range map[string]func(s map[string]any){
		"schemaObject requires a member": func(s map[string]any) {
			s["$defs"].(map[string]any)["schemaObject"].(map[string]any)["required"] = []any{"type"}
		},
		"inputSchema has its own schema": func(s map[string]any) {
			s["$defs"].(map[string]any)["descriptor"].(map[string]any)["properties"].(map[string]any)["inputSchema"] = map[string]any{"type": "object", "maxProperties": 3}
		},
		"outputSchema refers elsewhere": func(s map[string]any) {
			s["$defs"].(map[string]any)["descriptor"].(map[string]any)["properties"].(map[string]any)["outputSchema"] = map[string]any{"$ref": "#/$defs/descriptor"}
		},
		"no definitions": func(s map[string]any) { delete(s, "$defs") },
	} {
		s := catalog.RegistrySchema()
		change(s)
		if catalog.JudgesSchemasByTypeOf(s) {
			t.Errorf("%s: still judged to check tool schemas by type alone", name)
		}
	}
}
