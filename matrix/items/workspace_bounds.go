package items

import (
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// maxWalkedPages bounds a paged walk of a direct spec: a host whose
// cursors never end the walk fails instead of looping.
const maxWalkedPages = 40

// walkPages calls model with args and limit, then again with every
// nextCursor the host answers until a page says truncated: false, and
// returns the items of member of every page in order. Every page must hold
// at most limit items, and a truncated page must carry the cursor that
// continues it.
func walkPages(s *kit.Direct, model, member string, args map[string]any, limit int) [][]any {
	var pages [][]any
	call := map[string]any{"limit": limit}
	for k, v := range args {
		call[k] = v
	}
	for range maxWalkedPages {
		out := s.OK(model, call)
		items, ok := out[member].([]any)
		Expect(ok).To(BeTrue(), "%s %v answers no %s array", model, call, member)
		Expect(len(items)).To(BeNumerically("<=", limit), "%s with limit %d answered a page of %d %s; a page holds at most the limit asked for", model, limit, len(items), member)
		pages = append(pages, items)
		if out["truncated"] != true {
			return pages
		}
		next, _ := out["nextCursor"].(string)
		Expect(next).NotTo(BeEmpty(), "%s %v says truncated: true but carries no nextCursor to continue it", model, call)
		call["cursor"] = next
	}
	Fail(fmt.Sprintf("%s with limit %d still says truncated after %d pages of a small workspace; its cursors do not lead to the end", model, limit, maxWalkedPages))
	return nil
}

// sameOnce asserts that the keys of the walked pages are exactly want,
// each once, in any order.
func sameOnce(what string, pages [][]any, key func(any) string, want []string) {
	seen := map[string]int{}
	var got []string
	for i, page := range pages {
		for _, it := range page {
			k := key(it)
			seen[k]++
			Expect(seen[k]).To(Equal(1), "%s: %s appears again on page %d; paging must not repeat an entry", what, k, i+1)
			got = append(got, k)
		}
	}
	Expect(got).To(ConsistOf(want), "%s: the pages together must hold every entry of the unpaged answer exactly once; a cursor that skips or repeats an entry breaks pagination", what)
}

// pathOf is the path member of a listed entry or a match.
func pathOf(v any) string {
	m, _ := v.(map[string]any)
	p, _ := m["path"].(string)
	return p
}

// boundedFiles is the workspace of item 1's direct specs: seven files
// beside a directory of three, a text of many short lines, and five lines
// holding a search word.
func boundedFiles() map[string]string {
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		files[n+".txt"] = n + "\n"
	}
	for _, n := range []string{"x", "y", "z"} {
		files["sub/"+n+".txt"] = n + "\n"
	}
	files["sub/deeper/w.txt"] = "w\n"
	var long strings.Builder
	for i := 1; i <= 120; i++ {
		fmt.Fprintf(&long, "line %03d of the long file\n", i)
	}
	files["long.txt"] = long.String()
	files["lines.txt"] = "one\ntwo\nthree\nfour\nfive\n"
	files["hits.txt"] = "needle 1\nhay\nneedle 2\nneedle 3\nhay\nneedle 4\nneedle 5\n"
	return files
}

// listPagesCoverListing walks list_files two entries at a time, at depth
// 1 and 2, and compares the pages with the unpaged listing.
func listPagesCoverListing(s *kit.Direct) {
	for _, depth := range []int{1, 2} {
		full := s.OK("list_files", map[string]any{"path": ".", "depth": depth})
		Expect(full["truncated"]).To(Equal(false), "list_files at depth %d over %d entries must fit one page of the default limit", depth, len(boundedFiles()))
		entries, _ := full["entries"].([]any)
		var want []string
		for _, e := range entries {
			want = append(want, pathOf(e))
		}
		for _, p := range want {
			Expect(strings.Count(p, "/")).To(BeNumerically("<", depth), "list_files of . at depth %d lists %s, deeper than the depth asked for", depth, p)
		}
		if depth == 2 {
			Expect(want).To(ContainElement("sub/x.txt"), "list_files of . at depth 2 does not list sub/x.txt")
		}
		pages := walkPages(s, "list_files", "entries", map[string]any{"path": ".", "depth": depth}, 2)
		Expect(len(pages)).To(BeNumerically(">", 1), "list_files with limit 2 over %d entries answered one page", len(want))
		sameOnce(fmt.Sprintf("list_files at depth %d, two entries a page", depth), pages, pathOf, want)
	}
}

// globPagesCoverMatches walks glob_files two matches at a time and
// compares the pages with the unpaged matches.
func globPagesCoverMatches(s *kit.Direct) {
	glob := map[string]any{"pattern": "**/*.txt"}
	full := s.OK("glob_files", glob)
	Expect(full["truncated"]).To(Equal(false), "glob_files over %d files must fit one page of the default limit", len(boundedFiles()))
	matches, _ := full["matches"].([]any)
	var want []string
	for _, m := range matches {
		p, _ := m.(string)
		want = append(want, p)
	}
	Expect(want).To(ContainElement("sub/deeper/w.txt"), "glob_files **/*.txt does not match sub/deeper/w.txt")
	pages := walkPages(s, "glob_files", "matches", glob, 2)
	Expect(len(pages)).To(BeNumerically(">", 1), "glob_files with limit 2 over %d matches answered one page", len(want))
	sameOnce("glob_files **/*.txt, two matches a page", pages, func(v any) string { p, _ := v.(string); return p }, want)
}

// sameHash asserts that a hash the host answered is the SHA-256 of
// content, written bare or with "sha256:", in either case.
func sameHash(got any, content, what string) {
	h, _ := got.(string)
	h = strings.TrimPrefix(strings.ToLower(h), "sha256:")
	Expect("sha256:"+h).To(Equal(kit.HashOf(content)), "%s: contentHash must be the SHA-256 of the whole file, whatever range was read", what)
}

// readChunksBounded reads long.txt 256 bytes at a time and checks every
// chunk's size and that the chunks put together are the file.
func readChunksBounded(s *kit.Direct) {
	want := boundedFiles()["long.txt"]
	args := map[string]any{"path": "long.txt", "maxBytes": 256}
	var got strings.Builder
	for range maxWalkedPages {
		out := s.OK("read_file", args)
		content, _ := out["content"].(string)
		Expect(len(content)).To(BeNumerically("<=", 256), "read_file with maxBytes 256 answered %d bytes of content; the content must fit the bound asked for", len(content))
		sameHash(out["contentHash"], want, "read_file of long.txt, 256 bytes a chunk")
		got.WriteString(content)
		if out["truncated"] != true {
			Expect(got.String()).To(Equal(want), "read_file's chunks of long.txt, put together through nextCursor, are not the file; a cursor continues the same range where the chunk ended")
			return
		}
		next, _ := out["nextCursor"].(string)
		Expect(next).NotTo(BeEmpty(), "read_file says truncated: true but carries no nextCursor")
		args["cursor"] = next
	}
	Fail(fmt.Sprintf("read_file with maxBytes 256 still says truncated after %d chunks of a %d-byte file", maxWalkedPages, len(want)))
}

// readLinesBounded reads lines 2 to 3 of lines.txt.
func readLinesBounded(s *kit.Direct) {
	out := s.OK("read_file", map[string]any{"path": "lines.txt", "startLine": 2, "endLine": 3})
	content, _ := out["content"].(string)
	Expect(strings.TrimSuffix(content, "\n")).To(Equal("two\nthree"), "read_file with startLine 2 and endLine 3 of one/two/three/four/five must answer the text of lines 2 to 3 only (a final line break is the host's choice)")
	sameHash(out["contentHash"], boundedFiles()["lines.txt"], "read_file of lines 2 to 3 of lines.txt")
	if v, ok := out["startLine"]; ok {
		Expect(v).To(BeNumerically("==", 2), "read_file with startLine 2 answers startLine %v", v)
	}
}

// searchPagesBounded searches hits.txt two matches at a time.
func searchPagesBounded(s *kit.Direct) {
	pages := walkPages(s, "search_text", "matches", map[string]any{"query": "needle"}, 2)
	Expect(len(pages)).To(BeNumerically(">", 1), "search_text with limit 2 over five matching lines answered one page")
	key := func(v any) string {
		m, _ := v.(map[string]any)
		return fmt.Sprintf("%s:%v", m["path"], m["line"])
	}
	for _, page := range pages {
		for _, m := range page {
			mm, _ := m.(map[string]any)
			sameHash(mm["contentHash"], boundedFiles()["hits.txt"], fmt.Sprintf("search_text match %v", key(m)))
		}
	}
	sameOnce("search_text for needle, two matches a page", pages, key, []string{"hits.txt:1", "hits.txt:3", "hits.txt:4", "hits.txt:6", "hits.txt:7"})
}
