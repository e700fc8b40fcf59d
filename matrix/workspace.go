package matrix

import (
	"os"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	. "github.com/onsi/gomega"
)

var _ = describeItem(1, func(c *TestContext) {
	c.scenarios(map[string]check{
		"inspect.json": func(o *outcome) {
			for _, r := range o.Observed.ToolResults {
				Expect(r.EffectsAuthority).To(Equal("host"), "%s carries host-attested effects", r.ToolName)
				Expect(r.Effects).NotTo(BeNil(), "%s attests its effects", r.ToolName)
				Expect(r.Effects.InspectedPaths).NotTo(BeEmpty(), "%s attests what it inspected", r.ToolName)
				Expect(r.Effects.Writes).To(BeEmpty(), "%s is read-only and attests no writes", r.ToolName)
			}
		},
		// A page is bounded by the limit asked for, and says more follows
		// (catches ignore-page-limit).
		"paged-list.json": func(o *outcome) {
			c := o.contentOf("01-paged-list")
			Expect(c["entries"]).To(HaveLen(2), "%s: list_files with limit 2 over four files must answer one page of two entries", o.File)
			Expect(c["truncated"]).To(Equal(true), "%s: a page with more entries after it must say truncated: true", o.File)
			Expect(c["nextCursor"]).To(BeAssignableToTypeOf(""), "%s: a truncated page must carry the nextCursor that continues it", o.File)
			Expect(c["nextCursor"]).NotTo(BeEmpty(), "%s: a truncated page must carry the nextCursor that continues it", o.File)
		},
	})
})

var _ = describeItem(2, func(c *TestContext) {
	c.scenarios(map[string]check{
		// A create is typed missing → file, never a replacement.
		"create-new.json": func(o *outcome) {
			o.typedWrite("create", "docs", "missing", "", "directory", "")
			o.typedWrite("create", "docs/notes.txt", "missing", "", "file", hashOf("first note\n"))
		},
		// Replacements chain: each before hash is the previous after hash,
		// and the last after hash is the file on disk.
		"stale-hash.json": func(o *outcome) {
			edit := o.typedWrite("edit", "settings.txt", "file", "*", "file", "*")
			o.typedWrite("replace", "settings.txt", "file", *edit.AfterHash, "file", o.fileHash("settings.txt"))
		},
		"failure-keeps-inode.json": func(o *outcome) { o.keptInode("settings.txt") },
	})
})

// leakChecked are the item 13 scenarios whose outside/secret.txt holds the
// word "classified", which the model's arguments never contain.
func noLeak(o *outcome) {
	for _, c := range o.executes() {
		text := []string{}
		if c.Result != nil {
			text = append(text, c.Result.Content, c.Result.Summary)
			if c.Result.Error != nil {
				text = append(text, c.Result.Error.Message)
			}
		}
		if c.Error != nil {
			text = append(text, c.Error.Message)
		}
		for _, s := range text {
			Expect(strings.ToLower(s)).NotTo(ContainSubstring("classified"),
				"%s: the answer to %s quotes outside/secret.txt; a host must refuse an escape before reading its target", o.File, c.CallID)
		}
	}
}

var _ = describeItem(13, func(c *TestContext) {
	c.scenarios(map[string]check{
		"file-symlink.json":  noLeak,
		"dir-symlink.json":   noLeak,
		"symlink-chain.json": noLeak,
		"dotdot.json":        noLeak,
	})
})

var _ = describeItem(27, func(c *TestContext) {
	c.scenarios(map[string]check{
		// An incomplete scan says so and warns, both (catches
		// incomplete-scan-as-complete).
		"deep-tree.json": func(o *outcome) {
			c := o.contentOf("detect")
			scan, _ := c["scan"].(map[string]any)
			Expect(scan).NotTo(BeNil(), "%s: detect_project answers no scan object", o.File)
			Expect(scan["complete"]).To(Equal(false), "%s: a scan that hit its depth limit must report complete: false", o.File)
			Expect(scan["deepestDepth"]).To(BeNumerically("==", 20), "%s: the scan stopped at depth 20", o.File)
			Expect(c["warnings"]).To(ContainElement(ContainSubstring("depth")), "%s: an incomplete scan must warn about the depth limit", o.File)
			Expect(c["languages"]).NotTo(ContainElement("Python"), "%s: the only .py file lies below the depth limit", o.File)
		},
	})
})

var _ = describeItem(30, func(c *TestContext) {
	c.scenarios(map[string]check{
		// Every entry kind stays typed in the host's evidence (catches
		// untyped-entries).
		"command-entries-resume.json": func(o *outcome) {
			made := []port.Write{
				o.typedWrite("make-entries", "made-fifo.txt", "missing", "", "other", "*"),
				o.typedWrite("make-entries", "made-link.txt", "missing", "", "symlink", "*"),
				o.typedWrite("make-entries", "made.d", "missing", "", "directory", ""),
			}
			// The pause checkpoint a fresh host reads back keeps the same
			// kinds and hashes.
			cp, ok := o.checkpointOf("pause")
			if !ok {
				return
			}
			for _, w := range made {
				var found bool
				for _, e := range cp.Edits {
					if e.Path != w.Path {
						continue
					}
					found = true
					Expect(string(e.BeforeKind)).To(Equal(w.BeforeKind), "%s: the pause checkpoint types %s before as %s", o.File, w.Path, e.BeforeKind)
					Expect(string(e.AfterKind)).To(Equal(w.AfterKind), "%s: the pause checkpoint types %s after as %s", o.File, w.Path, e.AfterKind)
					Expect(e.AfterHash).To(Equal(w.AfterHash), "%s: the pause checkpoint's after hash of %s differs from the host's evidence", o.File, w.Path)
				}
				Expect(found).To(BeTrue(), "%s: the pause checkpoint holds no edit evidence for %s", o.File, w.Path)
			}
		},
		"command-retypes.json": func(o *outcome) {
			o.typedWrite("retype", "empty-dir.txt", "directory", "", "file", o.fileHash("empty-dir.txt"))
			o.typedWrite("retype", "gone.txt", "file", "*", "directory", "")
			o.typedWrite("retype", "notes.txt", "file", "*", "symlink", "*")
		},
	})
})

var _ = describeItem(32, func(c *TestContext) { c.scenarios(nil) })

var _ = describeItem(33, func(c *TestContext) {
	c.scenarios(map[string]check{
		// A directory named like a lock file gives no package manager
		// (catches manifest-directories).
		"manifest-named-directories.json": func(o *outcome) {
			c := o.contentOf("detect")
			Expect(c).NotTo(HaveKey("packageManager"), "%s: yarn.lock and package.json are directories; no package manager may be reported", o.File)
		},
		// The disclosed exclusions are sorted and cover every root
		// directory the host's listing leaves out.
		"excluded-trees.json": func(o *outcome) {
			c := o.contentOf("detect")
			var names []string
			for _, w := range c["warnings"].([]any) {
				s, _ := w.(string)
				if _, list, ok := strings.Cut(s, "excluded directory names: "); ok {
					for _, n := range strings.Split(strings.TrimSuffix(list, "."), ",") {
						names = append(names, strings.TrimSpace(n))
					}
				}
			}
			Expect(names).NotTo(BeEmpty(), "%s: detect_project must disclose the directory names it excludes from traversal", o.File)
			Expect(sort.StringsAreSorted(names)).To(BeTrue(), "%s: the excluded names %v must be sorted", o.File, names)
			listed := map[string]bool{}
			for _, e := range o.contentOf("list")["entries"].([]any) {
				if m, ok := e.(map[string]any); ok {
					listed[m["path"].(string)] = true
				}
			}
			entries, err := os.ReadDir(o.Workspace)
			Expect(err).NotTo(HaveOccurred(), "%s: the harness cannot list the workspace after the run", o.File)
			for _, e := range entries {
				if e.IsDir() && !listed[e.Name()] {
					Expect(names).To(ContainElement(e.Name()), "%s: the host hides %s/ from its listing but does not disclose it as excluded", o.File, e.Name())
				}
			}
		},
	})
})
