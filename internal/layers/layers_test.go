package layers

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/galaxy-stack/conform/"

// below lists, for each top-level folder holding Go packages, the other
// top-level folders its non-test code may import. A folder not listed here
// fails the test until it is given its place.
var below = map[string][]string{
	"internal": {},
	"core":     {"internal"},
	"doubles":  {"core", "internal"},
	"hosts":    {"core", "internal"},
	"reports":  {"internal"},
	"fixtures": {},
	"matrix":   {"core", "doubles", "fixtures", "hosts", "internal", "reports"},
	"cmd":      {"core", "doubles", "fixtures", "hosts", "internal", "matrix", "reports"},
}

func TestNoImportRunsBackUp(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(p, build.ImportComment)
		if err != nil {
			return nil // no Go files here (or only tests, or another build's)
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		top, _, _ := strings.Cut(rel, "/")
		allowed, ok := below[top]
		if !ok {
			t.Errorf("%s: folder %q has no place in the layers; add it to below in %s", rel, top, "internal/layers/layers_test.go")
			return nil
		}
		seen++
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			to, _, _ := strings.Cut(strings.TrimPrefix(imp, module), "/")
			if to == top || contains(allowed, to) {
				continue
			}
			t.Errorf("%s imports %s: %s/ may import only %v", rel, imp, top, allowed)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 50 {
		t.Fatalf("read %d packages under %s; the walk missed the module", seen, root)
	}
}

func contains(list []string, s string) bool {
	i := sort.SearchStrings(list, s)
	return i < len(list) && list[i] == s
}
