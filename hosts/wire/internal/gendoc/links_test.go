package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/internal/mdanchor"
)

// mdLink is a Markdown link's target.
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// outsideRef is a section reference to a specification that is not in the
// repository (CONTRACTS §6, LAB §20.3, ...).
var outsideRef = regexp.MustCompile(`\b(CONTRACTS|LAB|LAB_AND_HOSTS|RUNTIME|DECISIONS) §`)

// TestReferenceLinksResolve checks every relative link of the host
// author's reference (PROTOCOL.md, CONTRACTS.md, the tool pages): the file
// exists and, with an anchor, has a heading of that anchor. The pages may
// not send a reader to a specification outside the repository.
func TestReferenceLinksResolve(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(wireRoot, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	tools, err := filepath.Glob(filepath.Join(wireRoot, toolsDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{}
	for _, page := range append(pages, tools...) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(wireRoot, page)
		if m := outsideRef.Find(b); m != nil {
			t.Errorf("hosts/wire/%s refers to %q, a document outside the repository: link the section of this reference instead", name, m)
		}
		for _, m := range mdLink.FindAllSubmatch(b, -1) {
			target := string(m[1])
			if strings.Contains(target, "://") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Errorf("hosts/wire/%s links to %s, which does not exist", name, target)
				continue
			}
			if anchor == "" || fi.IsDir() {
				continue
			}
			if _, ok := anchors[path]; !ok {
				if anchors[path], err = mdanchor.HeadingAnchors(path); err != nil {
					t.Fatal(err)
				}
			}
			if !anchors[path][anchor] {
				t.Errorf("hosts/wire/%s links to %s, which has no heading #%s", name, target, anchor)
			}
		}
	}
}
