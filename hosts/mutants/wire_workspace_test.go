package mutants_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The wire-level specs of the workspace mutants that break bounds,
// containment, the fingerprint and atomic writes (W1–W6), kept apart from
// the main table so that each addition stays self-contained.
func init() {
	for name, spec := range workspaceSpecs {
		specs[name] = spec
	}
}

// sixFiles is a workspace of six one-line files, a.txt to f.txt.
func sixFiles() map[string]string {
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		files[n+".txt"] = n + "\n"
	}
	return files
}

// listedPaths returns the paths of a list_files page.
func listedPaths(out map[string]any) []string {
	var paths []string
	for _, e := range out["entries"].([]any) {
		paths = append(paths, e.(map[string]any)["path"].(string))
	}
	return paths
}

// secondPage lists two entries, then the page the first one's cursor
// continues with.
func secondPage(h *host) []string {
	_, out := h.ok("list_files", map[string]any{"path": ".", "limit": 2})
	Expect(listedPaths(out)).To(Equal([]string{"a.txt", "b.txt"}), "%s: first page", h)
	_, out = h.ok("list_files", map[string]any{"path": ".", "limit": 2, "cursor": out["nextCursor"]})
	return listedPaths(out)
}

// siblingLink makes a sibling directory name of the workspace holding
// secret.txt and the symlink workspace/peer to it; it skips the spec where
// the file system cannot tell name from "workspace".
func siblingLink(name string) func(dir string) {
	return func(dir string) {
		sib := filepath.Join(dir, name)
		if err := os.Mkdir(sib, 0o755); err != nil {
			Skip("a sibling " + name + " of the workspace cannot be made here: " + err.Error())
		}
		Expect(os.WriteFile(filepath.Join(sib, "secret.txt"), []byte("secret\n"), 0o644)).To(Succeed())
		if err := os.Symlink(sib, filepath.Join(dir, "workspace", "peer")); err != nil {
			Skip("symlinks are not available here: " + err.Error())
		}
	}
}

var workspaceSpecs = map[string]func(name string){
	"read-ignores-max-bytes": func(name string) {
		long := strings.Repeat("0123456789abcdef\n", 40)
		ref, mut := both(name, setup{files: map[string]string{"long.txt": long}})
		read := map[string]any{"path": "long.txt", "maxBytes": 256}
		_, out := ref.ok("read_file", read)
		Expect(len(out["content"].(string))).To(BeNumerically("<=", 256))
		Expect(out["truncated"]).To(BeTrue())
		_, out = mut.ok("read_file", read)
		Expect(out["content"]).To(Equal(long))
		Expect(out["truncated"]).To(BeFalse())
	},
	"read-ignores-end-line": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"l.txt": "one\ntwo\nthree\nfour\n"}})
		read := map[string]any{"path": "l.txt", "startLine": 2, "endLine": 3}
		_, out := ref.ok("read_file", read)
		Expect(out["content"]).To(Equal("two\nthree"))
		_, out = mut.ok("read_file", read)
		Expect(out["content"]).To(Equal("two\nthree\nfour\n"))
	},
	"list-cursor-skips": func(name string) {
		ref, mut := both(name, setup{files: sixFiles()})
		Expect(secondPage(ref)).To(Equal([]string{"c.txt", "d.txt"}))
		Expect(secondPage(mut)).To(Equal([]string{"d.txt", "e.txt"}), "c.txt is skipped")
	},
	"list-cursor-repeats": func(name string) {
		ref, mut := both(name, setup{files: sixFiles()})
		Expect(secondPage(ref)).To(Equal([]string{"c.txt", "d.txt"}))
		Expect(secondPage(mut)).To(Equal([]string{"b.txt", "c.txt"}), "b.txt is repeated")
	},
	"grep-ignores-limit": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"h.txt": "needle\nneedle\nneedle\nneedle\n"}})
		search := map[string]any{"query": "needle", "limit": 2}
		_, out := ref.ok("search_text", search)
		Expect(out["matches"]).To(HaveLen(2))
		Expect(out["truncated"]).To(BeTrue())
		_, out = mut.ok("search_text", search)
		Expect(out["matches"]).To(HaveLen(4))
		Expect(out["truncated"]).To(BeFalse())
	},
	"case-fold-containment": func(name string) {
		ref, mut := both(name, setup{prepare: siblingLink("WORKSPACE")})
		ref.fails("read_file", map[string]any{"path": "peer/secret.txt"}, "PERMISSION_DENIED")
		_, out := mut.ok("read_file", map[string]any{"path": "peer/secret.txt"})
		Expect(out["content"]).To(Equal("secret\n"))
	},
	"prefix-containment": func(name string) {
		ref, mut := both(name, setup{prepare: siblingLink("workspace-peer")})
		ref.fails("read_file", map[string]any{"path": "peer/secret.txt"}, "PERMISSION_DENIED")
		_, out := mut.ok("read_file", map[string]any{"path": "peer/secret.txt"})
		Expect(out["content"]).To(Equal("secret\n"))
	},
	"detect-follows-symlinks": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"notes.txt": "inside\n"}, prepare: func(dir string) {
			outsideLink(dir)
			Expect(os.WriteFile(filepath.Join(dir, "outside", "main.py"), []byte("print(1)\n"), 0o644)).To(Succeed())
		}})
		for _, h := range []*host{ref, mut} {
			_, out := h.ok("detect_project", map[string]any{"path": "."})
			if h == ref {
				Expect(out["languages"]).To(BeEmpty())
			} else {
				Expect(out["languages"]).To(ContainElement("Python"), "the link was followed out of the workspace")
			}
		}
	},
	"fingerprint-ignores-mode": func(name string) {
		if runtime.GOOS == "windows" {
			Skip("file modes are not kept on Windows")
		}
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"}})
		for _, h := range []*host{ref, mut} {
			ctx := context.Background()
			st, err := h.client.CaptureFingerprint(ctx, []wire.ActiveFile{}, nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(os.Chmod(h.path("a.txt"), 0o755)).To(Succeed())
			_, matches, err := h.client.VerifyFingerprint(ctx, st)
			Expect(err).NotTo(HaveOccurred())
			Expect(matches).To(Equal(h == mut), "%s: a mode-only change matches", h)
		}
	},
	"fingerprint-files-only": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"}})
		for _, h := range []*host{ref, mut} {
			ctx := context.Background()
			st, err := h.client.CaptureFingerprint(ctx, []wire.ActiveFile{}, nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(os.Mkdir(h.path("empty"), 0o755)).To(Succeed())
			_, matches, err := h.client.VerifyFingerprint(ctx, st)
			Expect(err).NotTo(HaveOccurred())
			Expect(matches).To(Equal(h == mut), "%s: an added empty directory matches", h)
		}
	},
	"ignore-active-file-hash": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"}})
		sum := sha256.Sum256([]byte("not a\n"))
		stale := hex.EncodeToString(sum[:])
		active := []wire.ActiveFile{{Path: "a.txt", Kind: "file", ContentHash: &stale}}
		_, err := ref.client.CaptureFingerprint(context.Background(), active, nil)
		pe, ok := wire.AsPortError(err)
		Expect(ok).To(BeTrue(), "reference: %v", err)
		Expect(pe.Code).To(Equal("PRECONDITION_FAILED"))
		_, err = mut.client.CaptureFingerprint(context.Background(), active, nil)
		Expect(err).NotTo(HaveOccurred())
	},
	"read-hash-of-range": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"l.txt": "one\ntwo\nthree\n"}})
		whole := sha256.Sum256([]byte("one\ntwo\nthree\n"))
		read := map[string]any{"path": "l.txt", "startLine": 2, "endLine": 2}
		_, out := ref.ok("read_file", read)
		Expect(out["contentHash"]).To(Equal(hex.EncodeToString(whole[:])))
		_, out = mut.ok("read_file", read)
		Expect(out["content"]).To(Equal("two"))
		part := sha256.Sum256([]byte("two"))
		Expect(out["contentHash"]).To(Equal(hex.EncodeToString(part[:])))
	},
	"list-ignores-depth": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n"}})
		list := map[string]any{"path": ".", "depth": 1}
		_, out := ref.ok("list_files", list)
		Expect(listedPaths(out)).To(Equal([]string{"a.txt", "sub"}))
		_, out = mut.ok("list_files", list)
		Expect(listedPaths(out)).To(Equal([]string{"a.txt", "sub", "sub/b.txt"}))
	},
	"glob-ignores-limit": func(name string) {
		ref, mut := both(name, setup{files: sixFiles()})
		glob := map[string]any{"pattern": "*.txt", "limit": 2}
		_, out := ref.ok("glob_files", glob)
		Expect(out["matches"]).To(HaveLen(2))
		Expect(out["truncated"]).To(BeTrue())
		_, out = mut.ok("glob_files", glob)
		Expect(out["matches"]).To(HaveLen(6))
		Expect(out["truncated"]).To(BeFalse())
	},
	"search-follows-symlinks": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"notes.txt": "inside\n"}, prepare: outsideLink})
		search := map[string]any{"query": "secret"}
		_, out := ref.ok("search_text", search)
		Expect(out["matches"]).To(BeEmpty())
		_, out = mut.ok("search_text", search)
		Expect(out["matches"]).To(HaveLen(1))
		Expect(out["matches"].([]any)[0].(map[string]any)["path"]).To(Equal("link/secret.txt"))
	},
	"fingerprint-skips-dotfiles": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{".env": "LEVEL=1\n"}})
		for _, h := range []*host{ref, mut} {
			ctx := context.Background()
			st, err := h.client.CaptureFingerprint(ctx, []wire.ActiveFile{}, nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(h.path(".env"), []byte("LEVEL=2\n"), 0o644)).To(Succeed())
			_, matches, err := h.client.VerifyFingerprint(ctx, st)
			Expect(err).NotTo(HaveOccurred())
			Expect(matches).To(Equal(h == mut), "%s: an edited dotfile matches", h)
		}
	},
	"create-as-replace": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			w := h.firstWrite("write_file", create("new.txt", "new\n"), 1)
			if h == ref {
				Expect(w.BeforeKind).To(BeEquivalentTo("missing"))
				Expect(w.BeforeHash).To(BeNil())
			} else {
				Expect(w.BeforeKind).To(BeEquivalentTo("file"))
				Expect(w.BeforeHash).NotTo(BeNil())
			}
		}
	},
	"untyped-created-dirs": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			w := h.firstWrite("write_file", create("docs/new.txt", "new\n"), 2)
			Expect(w.Path).To(Equal("docs"))
			if h == ref {
				Expect(w.AfterKind).To(BeEquivalentTo("directory"))
				Expect(w.AfterHash).To(BeNil())
			} else {
				Expect(w.AfterKind).To(BeEquivalentTo("file"))
				Expect(w.AfterHash).NotTo(BeNil())
			}
		}
	},
	"grep-hash-of-line": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"h.txt": "needle\nhay\n"}})
		whole := sha256.Sum256([]byte("needle\nhay\n"))
		line := sha256.Sum256([]byte("needle"))
		for _, h := range []*host{ref, mut} {
			_, out := h.ok("search_text", map[string]any{"query": "needle"})
			m := out["matches"].([]any)[0].(map[string]any)
			want := whole
			if h == mut {
				want = line
			}
			Expect(m["contentHash"]).To(Equal(hex.EncodeToString(want[:])), "%s: a match's contentHash", h)
		}
	},
	"create-through-dangling-link": func(name string) {
		ref, mut := both(name, setup{prepare: func(dir string) {
			Expect(os.MkdirAll(filepath.Join(dir, "outside"), 0o755)).To(Succeed())
			if err := os.Symlink(filepath.Join(dir, "outside", "planted.txt"), filepath.Join(dir, "workspace", "planted.txt")); err != nil {
				Skip("symlinks are not available here: " + err.Error())
			}
		}})
		ref.fails("write_file", create("planted.txt", "planted\n"), "PERMISSION_DENIED")
		_, err := os.Stat(filepath.Join(ref.dir, "outside", "planted.txt"))
		Expect(os.IsNotExist(err)).To(BeTrue(), "the reference host wrote outside")
		_, _ = mut.call("write_file", create("planted.txt", "planted\n"))
		b, err := os.ReadFile(filepath.Join(mut.dir, "outside", "planted.txt"))
		Expect(err).NotTo(HaveOccurred(), "the mutant made no file outside")
		Expect(string(b)).To(Equal("planted\n"))
	},
	"raw-bytes-mutations": func(name string) {
		bad := "caf\xff bad\n"
		ref, mut := both(name, setup{files: map[string]string{"bad.txt": bad}})
		edit := map[string]any{"path": "bad.txt", "oldText": "bad", "newText": "good"}
		ref.fails("edit_file", edit, "INVALID_INPUT")
		Expect(ref.read("bad.txt")).To(Equal(bad))
		mut.ok("edit_file", edit)
		Expect(mut.read("bad.txt")).To(Equal("caf\xff good\n"), "the invalid byte is kept, the text around it edited")
	},
	"write-in-place": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "one\n"}})
		sum := sha256.Sum256([]byte("one\n"))
		replace := map[string]any{"path": "a.txt", "content": "two\n",
			"precondition": map[string]any{"kind": "matches_sha256", "contentSha256": hex.EncodeToString(sum[:])}}
		for _, h := range []*host{ref, mut} {
			before := h.stat("a.txt")
			h.ok("write_file", replace)
			Expect(h.read("a.txt")).To(Equal("two\n"), "%s writes the content", h)
			Expect(os.SameFile(before, h.stat("a.txt"))).To(Equal(h == mut), "%s: same inode after a replacement", h)
		}
	},
}
