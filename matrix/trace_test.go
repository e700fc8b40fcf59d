package matrix

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/galaxy-stack/conform/matrix/kit"
)

// TestEveryCheckIsTraced fails on a check that names no contract sentence,
// an unknown one, a host-duty check that names only matrix lines, or an
// item whose declared guarantees differ from those its checks name.
func TestEveryCheckIsTraced(t *testing.T) {
	for _, it := range Items() {
		for _, err := range traceErrors(it) {
			t.Error(err)
		}
	}
}

// TestTraceErrorsCatchUntracedChecks shows the trace check can fail.
func TestTraceErrorsCatchUntracedChecks(t *testing.T) {
	it := Item{ID: 1, Scope: ScopeHost, Runnable: true, Guarantees: []string{"W1"}}
	saved := checks
	defer func() { checks = saved }()
	for name, specs := range map[string][]kit.Spec{
		"no sentence":      {{Name: "a"}},
		"unknown":          {{Name: "a", Sentences: []string{"W1", "Z9"}}},
		"only a line":      {{Name: "a", Sentences: []string{"W1"}}, {Name: "b", Sentences: []string{"L1"}}},
		"guarantees drift": {{Name: "a", Sentences: []string{"W1", "W2"}}},
	} {
		checks = func() map[int][]kit.Spec { return map[int][]kit.Spec{1: specs} }
		if errs := traceErrors(it); len(errs) == 0 {
			t.Errorf("%s: no trace error for %+v", name, specs)
		}
	}
	checks = func() map[int][]kit.Spec {
		return map[int][]kit.Spec{1: {{Name: "a", Sentences: []string{"W1", "L1"}}}}
	}
	if errs := traceErrors(it); len(errs) != 0 {
		t.Errorf("a traced check is refused: %v", errs)
	}
}

// TestItemCodeDeclaresSpecsThroughTheContext fails when item code calls
// Ginkgo's It directly: such a spec would run untraced and unlisted.
func TestItemCodeDeclaresSpecsThroughTheContext(t *testing.T) {
	for _, dir := range itemCode {
		fset := token.NewFileSet()
		for _, f := range parseDir(t, fset, dir) {
			name := filepath.Base(fset.Position(f.Pos()).Filename)
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if id, ok := call.Fun.(*ast.Ident); ok && (id.Name == "It" || id.Name == "FIt" || id.Name == "Describe" || id.Name == "Context") && name != "trace.go" {
					t.Errorf("%s/%s: item code calls Ginkgo's %s; declare specs with c.It(name, sentences, body) or c.Scenarios", dir, name, id.Name)
				}
				return true
			})
		}
	}
}
