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

func TestPreconditionFirstIsAChoiceOnNonUTF8Targets(t *testing.T) {
	raw := []byte("caf\xe9 bad\n")
	stale := Precondition{Kind: MatchesSHA256, ContentSha256: SHA256Hex([]byte("café bad\n"))}
	fresh := Precondition{Kind: MatchesSHA256, ContentSha256: SHA256Hex(raw)}
	for _, tc := range []struct {
		first        bool
		stale, fresh string // codes of the write with each precondition
	}{
		{false, "INVALID_INPUT", "INVALID_INPUT"},
		{true, "PRECONDITION_FAILED", "INVALID_INPUT"},
	} {
		r := choiceRoot(t).WithChoices(Choices{PreconditionFirst: tc.first})
		p := filepath.Join(r.Dir(), "latin1.txt")
		if err := os.WriteFile(p, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(p)
		for _, c := range []struct {
			pre  Precondition
			want string
		}{{stale, tc.stale}, {fresh, tc.fresh}} {
			_, err := r.WriteText(context.Background(), WriteRequest{Path: "latin1.txt", Content: "cafe good\n", Precondition: c.pre})
			if got := string(CodeOf(err)); got != c.want {
				t.Errorf("PreconditionFirst %v, hash %s: code %q (%v), want %q", tc.first, c.pre.ContentSha256[:8], got, err, c.want)
			}
			patch := c.pre
			_, err = r.ApplyPatch(context.Background(), PatchRequest{Path: "latin1.txt", OldText: "bad", NewText: "good", Precondition: &patch})
			if got := string(CodeOf(err)); got != c.want {
				t.Errorf("PreconditionFirst %v, patch with hash %s: code %q (%v), want %q", tc.first, c.pre.ContentSha256[:8], got, err, c.want)
			}
		}
		after, _ := os.Stat(p)
		if b, _ := os.ReadFile(p); string(b) != string(raw) || !os.SameFile(before, after) {
			t.Errorf("PreconditionFirst %v: latin1.txt rewritten or replaced: %q", tc.first, b)
		}
	}
}
