package faults_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/core/faults"
)

var kebab = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

func TestRegistry(t *testing.T) {
	all := faults.All()
	if len(all) == 0 {
		t.Fatal("no faults registered")
	}
	if !sort.SliceIsSorted(all, func(i, j int) bool { return all[i].Name < all[j].Name }) {
		t.Errorf("All is not sorted by name: %v", faults.Names())
	}
	seen := map[string]bool{}
	for _, f := range all {
		if seen[f.Name] {
			t.Errorf("fault %q is registered twice", f.Name)
		}
		seen[f.Name] = true
		if !kebab.MatchString(f.Name) {
			t.Errorf("fault name %q is not kebab-case", f.Name)
		}
		if !strings.Contains(f.Rule, "§") {
			t.Errorf("fault %q: rule %q names no section", f.Name, f.Rule)
		}
		if f.Description == "" || strings.Contains(f.Description, "\n") {
			t.Errorf("fault %q: description must be one non-empty line", f.Name)
		}
		if len(f.Items) == 0 {
			t.Errorf("fault %q names no matrix item that catches it", f.Name)
		}
		for _, it := range f.Items {
			if it < 1 || it > 54 {
				t.Errorf("fault %q: item %d is not a matrix item", f.Name, it)
			}
		}
		got, ok := faults.Lookup(f.Name)
		if !ok || got.Name != f.Name || !slices.Equal(got.Items, f.Items) {
			t.Errorf("Lookup(%q) = %v, %v", f.Name, got, ok)
		}
	}
	if _, ok := faults.Lookup("no-such-fault"); ok {
		t.Error("Lookup found a fault that does not exist")
	}
	all[0].Items[0] = -1
	if faults.All()[0].Items[0] == -1 {
		t.Error("All shares its Items slices with the registry")
	}
}

func TestOffByDefault(t *testing.T) {
	for _, n := range faults.Names() {
		if faults.On(n) {
			t.Errorf("fault %q is on by default", n)
		}
	}
	if got := faults.Enabled(); len(got) != 0 {
		t.Errorf("Enabled() = %v, want none", got)
	}
}

func TestEnable(t *testing.T) {
	name := faults.BatchDispatchReversed
	undo, err := faults.Enable(name)
	if err != nil {
		t.Fatal(err)
	}
	undo2, err := faults.Enable(name)
	if err != nil {
		t.Fatal(err)
	}
	if !faults.On(name) || !slices.Equal(faults.Enabled(), []string{name}) {
		t.Fatalf("%q is not on after Enable", name)
	}
	undo()
	undo()
	if !faults.On(name) {
		t.Fatal("a second undo of the same Enable turned off a nested Enable")
	}
	undo2()
	if faults.On(name) {
		t.Fatal("fault still on after every undo")
	}
	if _, err := faults.Enable("no-such-fault"); err == nil || !strings.Contains(err.Error(), faults.BatchDispatchReversed) {
		t.Errorf("Enable of an unknown fault: err = %v, want one that lists the known faults", err)
	}
}

func TestOnPanicsOnUnknownName(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("On of an unknown name did not panic")
		}
	}()
	faults.On("no-such-fault")
}

// TestEveryFaultIsSwitchedOnceInCore parses the non-test Go files under
// core/ and counts the calls faults.On(faults.Name) per fault: every
// registered fault must be tested at exactly one place, and nothing else
// may be passed to On.
func TestEveryFaultIsSwitchedOnceInCore(t *testing.T) {
	consts := constValues(t, "names.go")
	count := map[string]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "faults" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isSelector(call.Fun, "faults", "On") {
				return true
			}
			var arg *ast.SelectorExpr
			if len(call.Args) == 1 {
				arg, _ = call.Args[0].(*ast.SelectorExpr)
			}
			if arg == nil || !isSelector(arg, "faults", arg.Sel.Name) {
				t.Errorf("%s: faults.On must be called with a faults constant", fset.Position(call.Pos()))
				return true
			}
			v, ok := consts[arg.Sel.Name]
			if !ok {
				t.Errorf("%s: faults.%s is not a fault name", fset.Position(call.Pos()), arg.Sel.Name)
			}
			count[v]++
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range faults.Names() {
		if count[n] != 1 {
			t.Errorf("fault %q is switched at %d places in core code, want exactly 1", n, count[n])
		}
	}
	for v := range consts {
		if _, ok := faults.Lookup(consts[v]); !ok {
			t.Errorf("constant %s = %q is not registered", v, consts[v])
		}
	}
}

func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && sel.Sel.Name == name
}

// constValues returns the string constants declared in file.
func constValues(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("%s: constant %s is not a string literal", file, n.Name)
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out[n.Name] = v
			}
		}
	}
	return out
}
