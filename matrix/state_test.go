package matrix

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// itemCode are the packages of item code: the kit and the area specs.
var itemCode = []string{"kit", "items"}

// TestItemCodeReadsNoPackageState fails when item code reads (or writes) a
// package-level variable, its own package's or the registry's: what an
// item needs comes through its TestContext, never from a package. The
// registrations themselves (var _ = matrix.DescribeItem(…)) declare no
// variable anyone reads.
func TestItemCodeReadsNoPackageState(t *testing.T) {
	all := func(string) bool { return true }
	for _, dir := range itemCode {
		for _, use := range packageVarUses(t, dir, all) {
			t.Errorf("%s/%s: item code reads the package-level variable %s; give it to the item through its TestContext, or make it a constant or a function", dir, use.pos, use.name)
		}
	}
	vars := map[string]map[string]bool{"matrix": exportedVars(t, "."), "kit": exportedVars(t, "kit")}
	for _, dir := range itemCode {
		for _, f := range parseDir(t, token.NewFileSet(), dir) {
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && vars[x.Name][sel.Sel.Name] {
					t.Errorf("%s: item code reads the package-level variable %s.%s", dir, x.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
}

// exportedVars returns the exported package-level variables of the
// package in dir.
func exportedVars(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, f := range parseDir(t, token.NewFileSet(), dir) {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if n.IsExported() {
						out[n.Name] = true
					}
				}
			}
		}
	}
	return out
}

// A varUse is one use of a package-level variable.
type varUse struct{ pos, name string }

// packageVarUses type-checks the non-test Go files of dir for this
// platform and returns the uses of the package's own package-level
// variables in the files keep selects, sorted. Imports are not read: only
// the package's own identifiers need resolving, and the errors unresolved
// imports cause are ignored.
func packageVarUses(t *testing.T, dir string, keep func(file string) bool) []varUse {
	t.Helper()
	fset := token.NewFileSet()
	files := parseDir(t, fset, dir)
	conf := types.Config{Importer: noImports{}, Error: func(error) {}}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, _ := conf.Check(dir, fset, files, info)
	var out []varUse
	for id, obj := range info.Uses {
		v, ok := obj.(*types.Var)
		if !ok || v.Parent() != pkg.Scope() {
			continue
		}
		pos := fset.Position(id.Pos())
		if !keep(filepath.Base(pos.Filename)) {
			continue
		}
		out = append(out, varUse{pos: filepath.Base(pos.Filename) + ":" + strconv.Itoa(pos.Line), name: id.Name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	return out
}

// parseDir parses the non-test Go files of dir built for this platform.
func parseDir(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// noImports resolves no import: the check needs only the package's own
// names.
type noImports struct{}

func (noImports) Import(path string) (*types.Package, error) {
	return nil, fmt.Errorf("%s is not read", path)
}
