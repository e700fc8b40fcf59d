package mutants_test

import (
	"encoding/json"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	. "github.com/onsi/gomega"
)

// The wire-level specs of the mutants that matrix items 2, 27, 30 and 33
// catch, kept apart from the main table so that each addition stays
// self-contained.
var _ = addSpecs(itemSpecs)

var itemSpecs = map[string]func(name string){
	"ignore-stale-hash": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "one\n"}})
		stale := map[string]any{"path": "a.txt", "content": "two\n",
			"precondition": map[string]any{"kind": "matches_sha256", "contentSha256": strings.Repeat("0", 64)}}
		ref.fails("write_file", stale, "PRECONDITION_FAILED")
		Expect(ref.read("a.txt")).To(Equal("one\n"))
		mut.ok("write_file", stale)
		Expect(mut.read("a.txt")).To(Equal("two\n"), "the stale hash was not checked")
	},
	"edit-first-of-ambiguous": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "x = 1\ny = 1\n"}})
		edit := map[string]any{"path": "a.txt", "oldText": "= 1", "newText": "= 2"}
		ref.fails("edit_file", edit, "CONFLICT")
		Expect(ref.read("a.txt")).To(Equal("x = 1\ny = 1\n"))
		mut.ok("edit_file", edit)
		Expect(mut.read("a.txt")).To(Equal("x = 2\ny = 1\n"), "the first match was replaced")
	},
	"untyped-entries": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"}})
		run := map[string]any{"command": "mkdir d && ln -s a.txt l && mkfifo p"}
		kinds := func(h *host) map[string]string {
			r, err := h.call("run_command", run)
			if err != nil {
				return nil // the core's evidence checks may refuse the forged kinds
			}
			return afterKinds(r)
		}
		Expect(kinds(ref)).To(Equal(map[string]string{"d": "directory", "l": "symlink", "p": "other"}))
		Expect(kinds(mut)).To(Equal(map[string]string{"d": "file", "l": "file", "p": "file"}))
	},
	"silent-malformed-manifest": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"package.json": "{\n  \"scripts\": {\n"}})
		warning := "Root manifest 'package.json' is not valid JSON; scripts were not parsed."
		Expect(detectWarnings(ref)).To(ContainElement(warning))
		Expect(detectWarnings(mut)).NotTo(ContainElement(warning))
	},
	"manifest-directories": func(name string) {
		files := map[string]string{"package.json/README": "a directory\n", "src/main.py/README": "a directory\n"}
		ref, mut := both(name, setup{files: files})
		_, out := ref.ok("detect_project", map[string]any{"path": "."})
		Expect(out["manifests"]).To(BeEmpty())
		Expect(out["languages"]).To(BeEmpty())
		_, out = mut.ok("detect_project", map[string]any{"path": "."})
		Expect(out["manifests"]).To(ContainElement("package.json"))
		Expect(out["languages"]).To(ContainElement("Python"))
	},
	"hide-traversal-exclusions": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"go.mod": "module x\n"}})
		disclosed := ContainElement(ContainSubstring("excluded directory names: .git, coverage, dist, node_modules."))
		Expect(detectWarnings(ref)).To(disclosed)
		Expect(detectWarnings(mut)).NotTo(disclosed)
	},
}

// afterKinds maps each written path of a result to its afterKind.
func afterKinds(r port.ToolResult) map[string]string {
	kinds := map[string]string{}
	if r.Effects != nil {
		for _, w := range r.Effects.Writes {
			kinds[w.Path] = w.AfterKind
		}
	}
	return kinds
}

// detectWarnings runs detect_project on the root and returns its warnings.
func detectWarnings(h *host) []string {
	r, _ := h.ok("detect_project", map[string]any{"path": "."})
	var out struct {
		Warnings []string `json:"warnings"`
	}
	Expect(json.Unmarshal([]byte(r.Content), &out)).To(Succeed())
	return out.Warnings
}
