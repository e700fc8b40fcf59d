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

// runnerFiles are the files of the registry and the runner, which own the
// package's state; every other file of the package is item code.
var runnerFiles = map[string]bool{
	"context.go": true, "contract.go": true, "doc.go": true, "failure.go": true,
	"guarantees.go": true, "items.go": true, "limits.go": true, "progress.go": true,
	"ref.go": true, "registry.go": true, "runner.go": true,
}

// TestItemCodeReadsNoPackageState fails when item code reads (or writes) a
// package-level variable: what an item needs comes through its
// TestContext, never from the package.
func TestItemCodeReadsNoPackageState(t *testing.T) {
	for _, use := range packageVarUses(t, ".", func(file string) bool { return !runnerFiles[file] }) {
		t.Errorf("%s: item code reads the package-level variable %s; give it to the item through its TestContext, or make it a constant or a function", use.pos, use.name)
	}
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
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
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

// noImports resolves no import: the check needs only the package's own
// names.
type noImports struct{}

func (noImports) Import(path string) (*types.Package, error) {
	return nil, fmt.Errorf("%s is not read", path)
}
