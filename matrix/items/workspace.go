package items

import (
	"os"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/kit"
	"github.com/galaxy-stack/conform/matrix/oracle"
	. "github.com/onsi/gomega"
)

var _ = matrix.DescribeItem(matrix.Item{
	ID: 1, Name: "read-only-inspect", Area: "workspace", Title: "read-only inspect and report",
	Scope: matrix.ScopeHost, Tools: []string{"workspace.list", "workspace.read", "workspace.grep", "project.detect"}, Guarantees: []string{"W1", "W4", "W5", "T2", "T5"},
	Contract: "hosts/wire/CONTRACTS.md#evidence-types", Guarantee: "A host MUST serve list, read and detect calls on a real workspace with host-attested inspect evidence, and MUST NOT change the workspace while doing so.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"inspect.json": kit.On("W1 W4 T2 T5 L1", func(o *kit.Outcome) {
			for _, r := range o.Observed.ToolResults {
				Expect(r.EffectsAuthority).To(Equal("host"), "%s carries host-attested effects", r.ToolName)
				Expect(r.Effects).NotTo(BeNil(), "%s attests its effects", r.ToolName)
				Expect(r.Effects.InspectedPaths).NotTo(BeEmpty(), "%s attests what it inspected", r.ToolName)
				Expect(r.Effects.Writes).To(BeEmpty(), "%s is read-only and attests no writes", r.ToolName)
			}
		}),
		// A page is bounded by the limit asked for, and says more follows
		// (catches ignore-page-limit).
		"paged-list.json": kit.On("W5 L1", func(o *kit.Outcome) {
			c := o.ContentOf("01-paged-list")
			Expect(c["entries"]).To(HaveLen(2), "%s: list_files with limit 2 over four files must answer one page of two entries", o.File)
			Expect(c["truncated"]).To(Equal(true), "%s: a page with more entries after it must say truncated: true", o.File)
			Expect(c["nextCursor"]).To(BeAssignableToTypeOf(""), "%s: a truncated page must carry the nextCursor that continues it", o.File)
			Expect(c["nextCursor"]).NotTo(BeEmpty(), "%s: a truncated page must carry the nextCursor that continues it", o.File)
		}),
	})

	// Walked to the end through the host's own cursors, the pages hold
	// the unpaged answer exactly once, within the depth asked for, and a
	// match carries its whole file's hash (catches list-cursor-skips,
	// list-cursor-repeats, list-ignores-depth, glob-ignores-limit,
	// grep-ignores-limit, grep-hash-of-line).
	c.It("list_files, glob_files and search_text pages, walked to the end, hold every entry once and at most the limit each", "W4 W5 L1", func() {
		kit.FailRepro(c)
		s := kit.StartDirect(c, boundedFiles(), nil)
		listPagesCoverListing(s)
		globPagesCoverMatches(s)
		searchPagesBounded(s)
	})
	// A read answers the range and the byte bound it was asked for, with
	// the hash of the whole file (catches read-ignores-max-bytes,
	// read-ignores-end-line, read-hash-of-range).
	c.It("read_file answers at most maxBytes a chunk and only the lines asked for, with the whole file's hash", "W4 W5 L1", func() {
		kit.FailRepro(c)
		s := kit.StartDirect(c, boundedFiles(), nil)
		readChunksBounded(s)
		readLinesBounded(s)
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 2, Name: "preconditioned-write", Area: "workspace", Title: "preconditioned create and edit",
	Scope: matrix.ScopeHost, Tools: []string{"workspace.write", "workspace.edit"}, Guarantees: []string{"W3", "W4", "T7", "T8"},
	Contract: "hosts/wire/tools/workspace.write.md#errors", Guarantee: "A host MUST create only when the path does not exist and replace or edit only when the content hash matches, checked in the same serialized commit, with typed before/after evidence.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// A create is typed missing → file, never a replacement.
		"create-new.json": kit.On("W3 W4 T7 T8 L2", func(o *kit.Outcome) {
			o.TypedWrite("create", "docs", "missing", "", "directory", "")
			o.TypedWrite("create", "docs/notes.txt", "missing", "", "file", kit.HashOf("first note\n"))
		}),
		// Replacements chain: each before hash is the previous after hash,
		// and the last after hash is the file on disk.
		"stale-hash.json": kit.On("W3 W4 L2", func(o *kit.Outcome) {
			edit := o.TypedWrite("edit", "settings.txt", "file", "*", "file", "*")
			o.TypedWrite("replace", "settings.txt", "file", *edit.AfterHash, "file", o.FileHash("settings.txt"))
		}),
		"failure-keeps-inode.json": kit.On("W3 W4 L2", func(o *kit.Outcome) { o.KeptInode("settings.txt") }),
		// A successful replacement is a new file renamed over the target,
		// never the old one rewritten in place (catches write-in-place).
		"replace-atomic.json":       kit.On("W3 L2", func(o *kit.Outcome) { o.ReplacedInode("settings.txt") }),
		"create-over-existing.json": kit.On("W3 L2", nil),
		"edit-conflict.json":        kit.On("W3 L2", nil),
	})
})

// derived reports whether a root-relative path lies in a derived tree,
// whose changes CONTRACTS.md (`writes`) says are never writes (item 3).
func derived(p string) bool { return oracle.IsDerivedPath(p) }

// leakChecked are the item 13 scenarios whose outside/secret.txt holds the
// word "classified", which the model's arguments never contain.
func noLeak(o *kit.Outcome) {
	for _, c := range o.Executes() {
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

var _ = matrix.DescribeItem(matrix.Item{
	ID: 13, Name: "symlink-traversal", Area: "workspace", Title: "symlink and path traversal attempts",
	Scope: matrix.ScopeHost, Tools: []string{"workspace.read", "workspace.write", "workspace.grep", "command.run", "project.detect"}, Guarantees: []string{"W1", "W2", "C6"},
	Contract: "hosts/wire/CONTRACTS.md#tool-error-codes", Guarantee: "A host MUST resolve every path beneath the workspace root and reject lexical and symlink escapes without touching anything outside it.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"file-symlink.json":  kit.On("W2 L13", noLeak),
		"dir-symlink.json":   kit.On("W2 L13", noLeak),
		"symlink-chain.json": kit.On("W2 L13", noLeak),
		"dotdot.json":        kit.On("W1 W2 L13", noLeak),
		"absolute.json":      kit.On("W1 W2 L13", nil),
		"cwd-escape.json":    kit.On("C6 L13", nil),
		// A write never follows a dangling symlink out; the harness's
		// outside snapshot sees a file made there (catches
		// create-through-dangling-link).
		"dangling-symlink.json": kit.On("W2 L13", noLeak),
		// Detection never enters a symlinked directory that leads out
		// (catches detect-follows-symlinks).
		"detect-symlink.json": kit.On("W2 L13", func(o *kit.Outcome) {
			noLeak(o)
			c := o.ContentOf("detect")
			Expect(c["languages"]).NotTo(ContainElement("Python"), "%s: the only .py file lies outside the workspace, behind the symlink linked/; detection must not follow it", o.File)
			manifests, _ := c["manifests"].([]any)
			for _, m := range manifests {
				p, _ := m.(string)
				Expect(p).NotTo(HavePrefix("linked/"), "%s: detect_project reports the manifest %s, which lies outside the workspace behind the symlink linked/", o.File, p)
			}
		}),
	})

	// A sibling of the root that a string comparison takes for the root
	// is outside it (catches case-fold-containment, prefix-containment).
	c.It("a symlink to a sibling named like the root, in other letter case or with a suffix, is an escape", "W2 L13", func() {
		kit.FailRepro(c)
		var made []sibling
		s := kit.StartDirect(c, map[string]string{"notes.txt": "inside\n"}, func(s *kit.Direct) { made = laySiblings(s) })
		siblingsRefused(s, made)
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 27, Name: "incomplete-discovery", Area: "workspace", Title: "project discovery reports incomplete scans and malformed manifests",
	Scope: matrix.ScopeHost, Tools: []string{"project.detect"}, Guarantees: []string{"W5"},
	Contract: "hosts/wire/tools/project.detect.md#output", Guarantee: "Project discovery MUST report incomplete scans and malformed manifests instead of treating missing evidence as proof of absence.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The depth limit is the host's own, declared as scan.maxDepth:
		// the verdict follows from it (catches incomplete-scan-as-complete).
		"deep-tree.json": kit.On("W5 L27", func(o *kit.Outcome) {
			c := o.ContentOf("detect")
			scan, _ := c["scan"].(map[string]any)
			Expect(scan).NotTo(BeNil(), "%s: detect_project answers no scan object", o.File)
			maxDepth, _ := scan["maxDepth"].(float64)
			Expect(maxDepth).To(BeNumerically(">=", 1), "%s: scan.maxDepth must declare the host's depth limit (an integer ≥ 1), got %v", o.File, scan["maxDepth"])
			if maxDepth < deepTreeDepth {
				Expect(scan["complete"]).To(Equal(false), "%s: the host declares maxDepth %v and main.py lies at depth %d: a scan its depth limit stopped must report complete: false", o.File, maxDepth, deepTreeDepth)
				Expect(scan["deepestDepth"]).To(BeNumerically("<=", maxDepth), "%s: scan.deepestDepth exceeds the declared maxDepth", o.File)
				Expect(c["warnings"]).NotTo(BeEmpty(), "%s: an incomplete scan must say in warnings what limited it", o.File)
				Expect(c["languages"]).NotTo(ContainElement("Python"), "%s: the only .py file lies below the declared depth limit %v", o.File, maxDepth)
			} else {
				Expect(scan["complete"]).To(Equal(true), "%s: the host declares maxDepth %v, deep enough for main.py at depth %d: the scan is complete", o.File, maxDepth, deepTreeDepth)
				Expect(c["languages"]).To(ContainElement("Python"), "%s: main.py lies within the declared depth limit %v", o.File, maxDepth)
			}
		}),
		// A malformed manifest is reported, naming the manifest (catches
		// silent-malformed-manifest); the words are the host's.
		"malformed-package-json.json": kit.On("W5 L27", namesInWarnings("package.json")),
		"non-string-script.json":      kit.On("W5 L27", namesInWarnings("package.json")),
		"scripts-not-object.json":     kit.On("W5 L27", namesInWarnings("package.json")),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 30, Name: "typed-entries", Area: "workspace", Title: "directory/symlink/special-entry mutations remain typed",
	Scope: matrix.ScopeHost, Tools: []string{"command.run"}, Guarantees: []string{"T8"},
	Contract: "hosts/wire/CONTRACTS.md#evidence-types", Guarantee: "Directory, symlink and special-entry mutations MUST stay typed through completion, checkpoint and resume verification.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Every entry kind stays typed in the host's evidence (catches
		// untyped-entries).
		"command-entries-resume.json": kit.On("T8 L30", func(o *kit.Outcome) {
			made := []port.Write{
				o.TypedWrite("make-entries", "made-fifo.txt", "missing", "", "other", "*"),
				o.TypedWrite("make-entries", "made-link.txt", "missing", "", "symlink", "*"),
				o.TypedWrite("make-entries", "made.d", "missing", "", "directory", ""),
			}
			// The pause checkpoint a fresh host reads back keeps the same
			// kinds and hashes.
			cp, ok := o.CheckpointOf("pause")
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
		}),
		"command-retypes.json": kit.On("T8 L30", func(o *kit.Outcome) {
			o.TypedWrite("retype", "empty-dir.txt", "directory", "", "file", o.FileHash("empty-dir.txt"))
			o.TypedWrite("retype", "gone.txt", "file", "*", "directory", "")
			o.TypedWrite("retype", "notes.txt", "file", "*", "symlink", "*")
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 32, Name: "invalid-utf8", Area: "workspace", Title: "invalid UTF-8 is rejected by text mutation paths",
	Scope: matrix.ScopeHost, Tools: []string{"workspace.edit", "workspace.write", "workspace.read"}, Guarantees: []string{"W3"},
	Contract: "hosts/wire/CONTRACTS.md#tool-error-codes", Guarantee: "Text mutations MUST reject invalid UTF-8 without rewriting bytes or replacing the inode.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// replace-lossy-hash fails two checks at once: its target is not
		// UTF-8 and its hash is stale. Which one the host reports is its
		// choice (CONTRACTS.md, "Host's choices"); that it refuses is not.
		"latin1-file.json": kit.On("W3 L32", func(o *kit.Outcome) {
			r := o.Answer("replace-lossy-hash")
			Expect(r.OK).To(BeFalse(), "%s: write_file over a non-UTF-8 file with a stale hash must be refused", o.File)
			Expect(r.Error).NotTo(BeNil(), "%s: the refused write_file carries no error", o.File)
			Expect(r.Error.Code).To(BeElementOf("INVALID_INPUT", "PRECONDITION_FAILED"),
				"%s: write_file over a non-UTF-8 file with a stale hash must answer INVALID_INPUT or PRECONDITION_FAILED", o.File)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 33, Name: "detection-exclusions", Area: "workspace", Title: "project detection ignores manifest-like directory names and discloses exclusions",
	Scope: matrix.ScopeHost, Tools: []string{"project.detect"}, Guarantees: []string{"W5"},
	Contract: "hosts/wire/tools/project.detect.md#choices", Guarantee: "Project detection MUST ignore directories named like manifests or sources and disclose its traversal exclusions.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// A directory named like a lock file gives no package manager
		// (catches manifest-directories).
		"manifest-named-directories.json": kit.On("W5 L33", func(o *kit.Outcome) {
			c := o.ContentOf("detect")
			Expect(c).NotTo(HaveKey("packageManager"), "%s: yarn.lock and package.json are directories; no package manager may be reported", o.File)
		}),
		// The warnings name every root directory the host's listing
		// leaves out: the host's own exclusions, in its own words
		// (catches hide-traversal-exclusions).
		"excluded-trees.json": kit.On("W5 L33", func(o *kit.Outcome) {
			names := warningNames(o.ContentOf("detect"))
			listed := map[string]bool{}
			for _, e := range o.ContentOf("list")["entries"].([]any) {
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
		}),
	})
})
