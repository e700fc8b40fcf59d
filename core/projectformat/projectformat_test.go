package projectformat_test

import (
	"encoding/json"
	"testing"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/projectformat"
	"github.com/galaxy-stack/conform/core/schema"
)

func TestStateChangedIsThreeState(t *testing.T) {
	for in, want := range map[string]projectformat.StateChanged{"true": projectformat.Changed, "false": projectformat.Unchanged, `"unknown"`: projectformat.Unknown} {
		var got projectformat.StateChanged
		if err := json.Unmarshal([]byte(in), &got); err != nil || got != want {
			t.Fatalf("%s: got %q, %v", in, got, err)
		}
		b, _ := json.Marshal(got)
		if string(b) != in {
			t.Fatalf("%s round-trips as %s", in, b)
		}
	}
	var s projectformat.StateChanged
	if err := json.Unmarshal([]byte(`"yes"`), &s); err == nil {
		t.Fatal(`"yes" was accepted as a mutation state`)
	}
}

func TestAggregateNeverClaimsSuccessOverUnknown(t *testing.T) {
	f := func(s projectformat.StateChanged) projectformat.FileReport {
		return projectformat.FileReport{StateChanged: s}
	}
	cases := []struct {
		files []projectformat.FileReport
		want  projectformat.StateChanged
	}{
		{[]projectformat.FileReport{f(projectformat.Unchanged)}, projectformat.Unchanged},
		{[]projectformat.FileReport{f(projectformat.Unchanged), f(projectformat.Changed)}, projectformat.Changed},
		{[]projectformat.FileReport{f(projectformat.Changed), f(projectformat.Unknown)}, projectformat.Unknown},
		{[]projectformat.FileReport{f(projectformat.Unknown), f(projectformat.Changed)}, projectformat.Unknown},
	}
	for i, c := range cases {
		if got := projectformat.Aggregate(c.files); got != c.want {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
	}
}

func TestResolveAndAdmit(t *testing.T) {
	if a, err := projectformat.Resolve("auto", []string{"m/a.go", "m/b.go"}); err != nil || a != catalog.AdapterGo {
		t.Fatalf("auto over .go files: %q, %v", a, err)
	}
	for _, bad := range [][]string{{"a.go", "b.rs"}, {"a.txt"}} {
		if _, err := projectformat.Resolve("auto", bad); err == nil {
			t.Errorf("auto accepted %v", bad)
		}
	}
	if _, err := projectformat.Resolve("rust", []string{"a.py"}); err == nil {
		t.Error("rust accepted a .py file")
	}
	if err := projectformat.Admit([]string{catalog.FlagProjectFormat}, catalog.AdapterGo); err == nil {
		t.Error("Go admitted without project_format_go_v1")
	}
	if err := projectformat.Admit([]string{catalog.FlagProjectFormatGo}, catalog.AdapterGo); err == nil {
		t.Error("Go admitted without project_format_v1")
	}
	if err := projectformat.Admit([]string{catalog.FlagProjectFormat}, catalog.AdapterRust); err != nil {
		t.Error(err)
	}
}

func TestDescriptorIsClosedExtensionTool(t *testing.T) {
	d := catalog.ProjectFormat()
	if err := catalog.CheckDescriptor(d); err != nil {
		t.Fatal(err)
	}
	if d.Idempotency != catalog.IdempotencyUnsafe || d.Mutability != catalog.MutabilityWrite || d.Source.Owner != catalog.OwnerExtension {
		t.Fatalf("authority: %+v", d)
	}
	v := schema.NewValidator()
	if err := v.Validate(d.InputSchema, map[string]any{"files": []any{"a.go"}, "extra": true}); err == nil {
		t.Error("the input schema accepted an undeclared property")
	}
	if err := v.Validate(d.InputSchema, map[string]any{"files": []any{"a.go", "a.go"}}); err == nil {
		t.Error("the input schema accepted a duplicate file")
	}
	if err := v.Validate(d.InputSchema, map[string]any{"files": []any{}}); err == nil {
		t.Error("the input schema accepted no file")
	}
	if effects.IsCoreTool(d.ID) {
		t.Fatal("project.format is a core tool")
	}
	if err := effects.AssertExtensionCapabilities(d.ID, []string{effects.CapValidate}); err == nil {
		t.Error("project.format may declare validate")
	}
	if len(catalog.Core()) != 21 || len(catalog.Extensions(nil)) != 0 {
		t.Error("the extension leaked into the core catalog")
	}
}
