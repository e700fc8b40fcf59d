package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func choiceRoot(t *testing.T, files ...string) *Root {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDetectDepthIsAChoiceDeclaredAsMaxDepth(t *testing.T) {
	r := choiceRoot(t, "a/b/c/d/e/deep.py").WithChoices(Choices{DetectMaxDepth: 3})
	p, err := r.DetectProject(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if p.Scan.MaxDepth != 3 || p.Scan.DeepestDepth != 3 || p.Scan.Complete || len(p.Languages) != 0 {
		t.Errorf("depth 3: scan %+v, languages %v; want maxDepth 3, deepest 3, incomplete, none", p.Scan, p.Languages)
	}
	p, err = choiceRoot(t, "a/b/c/d/e/deep.py").DetectProject(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if p.Scan.MaxDepth != DetectMaxDepth || !p.Scan.Complete || !slices.Equal(p.Languages, []string{"Python"}) {
		t.Errorf("default: scan %+v, languages %v", p.Scan, p.Languages)
	}
}

func TestExtraExclusionsAreSkippedAndDisclosed(t *testing.T) {
	r := choiceRoot(t, "vendor/x/go.mod", "vendor/x/x.go", "main.py").WithChoices(Choices{ExtraExclusions: []string{"vendor", "build"}})
	p, err := r.DetectProject(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Languages, []string{"Python"}) || len(p.Manifests) != 0 {
		t.Errorf("languages %v, manifests %v: vendor/ must not be scanned", p.Languages, p.Manifests)
	}
	if !strings.Contains(strings.Join(p.Warnings, "\n"), ".git, build, coverage, dist, node_modules, vendor") {
		t.Errorf("warnings %q do not disclose the exclusions", p.Warnings)
	}
	_, entries, err := r.traverse(context.Background(), ".", 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name == "vendor" {
			t.Error("traversal lists vendor/")
		}
	}
}
