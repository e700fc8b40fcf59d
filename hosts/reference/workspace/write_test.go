package workspace_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

func mustNotExist() workspace.Precondition {
	return workspace.Precondition{Kind: workspace.MustNotExist}
}

func matches(content string) workspace.Precondition {
	return workspace.Precondition{Kind: workspace.MatchesSHA256, ContentSha256: sha(content)}
}

func hashPtr(content string) *string {
	s := workspace.HashPrefix + sha(content)
	return &s
}

var _ = Describe("write side", func() {
	var f *fixture
	BeforeEach(func() { f = newFixture() })

	// expectUntouched asserts a rejected mutation kept bytes and inode.
	expectUntouched := func(rel, content string, before os.FileInfo) {
		GinkgoHelper()
		Expect(f.read(rel)).To(Equal(content))
		Expect(os.SameFile(before, f.info(rel))).To(BeTrue(), "inode replaced")
	}

	Describe("WriteText", func() {
		It("creates a file with its parents and returns typed evidence", func() {
			res, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: "new/nested/child.txt", Content: "héllo 😀", Precondition: mustNotExist()})
			Expect(err).NotTo(HaveOccurred())
			Expect(f.read("new/nested/child.txt")).To(Equal("héllo 😀"))
			Expect(res.Path).To(Equal("new/nested/child.txt"))
			Expect(res.ResolvedPath).To(Equal(filepath.Join(f.root.Dir(), "new", "nested", "child.txt")))
			Expect(res.BeforeContentSha256).To(BeEmpty())
			Expect(res.AfterContentSha256).To(Equal(sha("héllo 😀")))
			Expect(res.Length).To(Equal(8)) // UTF-16 units
			Expect(res.Writes).To(Equal([]port.Write{
				{Path: "new", BeforeKind: "missing", AfterKind: "directory"},
				{Path: "new/nested", BeforeKind: "missing", AfterKind: "directory"},
				{Path: "new/nested/child.txt", BeforeKind: "missing", AfterKind: "file", AfterHash: hashPtr("héllo 😀")},
			}))
			if runtime.GOOS != "windows" {
				Expect(f.info("new/nested/child.txt").Mode().Perm()).To(Equal(os.FileMode(0o600)))
			}
			Expect(f.read("new/nested/child.txt")).NotTo(ContainSubstring(".tmp"))
			entries, _ := os.ReadDir(f.abs("new/nested"))
			Expect(entries).To(HaveLen(1), "temporary or lock files left behind")
		})

		It("replaces atomically with a new inode, carrying permission bits", func() {
			f.write("a.txt", "old\n")
			Expect(os.Chmod(f.abs("a.txt"), 0o640)).To(Succeed())
			before := f.info("a.txt")
			res, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: "a.txt", Content: "new\n", Precondition: matches("old\n")})
			Expect(err).NotTo(HaveOccurred())
			Expect(f.read("a.txt")).To(Equal("new\n"))
			Expect(res.BeforeContentSha256).To(Equal(sha("old\n")))
			Expect(res.Writes).To(Equal([]port.Write{{Path: "a.txt", BeforeKind: "file", BeforeHash: hashPtr("old\n"), AfterKind: "file", AfterHash: hashPtr("new\n")}}))
			// The inode checks below are meaningful: a successful replace
			// does change it.
			Expect(os.SameFile(before, f.info("a.txt"))).To(BeFalse())
			if runtime.GOOS != "windows" {
				Expect(f.info("a.txt").Mode().Perm()).To(Equal(os.FileMode(0o640)))
			}
		})

		It("keeps bytes and inode on every rejected write", func() {
			f.write("a.txt", "current\n")
			before := f.info("a.txt")
			cases := []struct {
				pc   workspace.Precondition
				body string
				code hosterr.Code
			}{
				{mustNotExist(), "x", hosterr.PreconditionFailed},
				{matches("stale\n"), "x", hosterr.PreconditionFailed},
				{workspace.Precondition{Kind: workspace.MatchesSHA256, ContentSha256: "ABC"}, "x", hosterr.InvalidInput},
				{workspace.Precondition{Kind: "maybe"}, "x", hosterr.InvalidInput},
				{matches("current\n"), "current\n", hosterr.Conflict},
			}
			for _, c := range cases {
				_, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: "a.txt", Content: c.body, Precondition: c.pc})
				Expect(err).To(haveCode(c.code), fmt.Sprint(c.pc))
				expectUntouched("a.txt", "current\n", before)
			}
		})

		It("names both hashes in a mismatch", func() {
			f.write("a.txt", "current\n")
			_, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: "a.txt", Content: "x", Precondition: matches("stale\n")})
			Expect(err.(*hosterr.Error).Message).To(ContainSubstring(sha("stale\n")))
			Expect(err.(*hosterr.Error).Message).To(ContainSubstring(sha("current\n")))
		})

		It("never creates directories for a hash-bound write", func() {
			_, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: "new/nested/child.txt", Content: "x", Precondition: matches("x")})
			Expect(err).To(haveCode(hosterr.PreconditionFailed))
			Expect(f.abs("new")).NotTo(BeADirectory())
		})

		It("removes the directories it created when the commit fails", func() {
			// A 245-byte name is valid, but its lock and temporary names are
			// not, so the commit fails after the parents were created.
			long := "made/deeper/" + strings.Repeat("n", 245)
			_, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: long, Content: "x", Precondition: mustNotExist()})
			Expect(err).To(HaveOccurred())
			Expect(f.abs("made")).NotTo(BeADirectory())
		})

		It("reports a held target lock as retryable UNAVAILABLE", func() {
			f.write("held/t.txt", "v")
			Expect(os.WriteFile(f.abs("held/t.txt")+workspace.LockSuffix, nil, 0o644)).To(Succeed())
			_, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: "held/t.txt", Content: "x", Precondition: matches("v")})
			Expect(err).To(haveCode(hosterr.Unavailable))
			Expect(err.(*hosterr.Error).Retryable()).To(BeTrue())
			Expect(f.read("held/t.txt")).To(Equal("v"))
		})

		It("rejects invalid UTF-8 targets without rewriting them", func() {
			raw := []byte("bad \xff bytes")
			Expect(os.WriteFile(f.abs("bad.txt"), raw, 0o644)).To(Succeed())
			before := f.info("bad.txt")
			_, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: "bad.txt", Content: "fixed", Precondition: matches(string(raw))})
			Expect(err).To(haveCode(hosterr.InvalidInput))
			_, err = f.root.ApplyPatch(ctx, workspace.PatchRequest{Path: "bad.txt", OldText: "bad", NewText: "good"})
			Expect(err).To(haveCode(hosterr.InvalidInput))
			Expect(os.ReadFile(f.abs("bad.txt"))).To(Equal(raw))
			Expect(os.SameFile(before, f.info("bad.txt"))).To(BeTrue())
		})

		It("refuses to write through a final symlink or over a directory", func() {
			f.write("real.txt", "r")
			f.symlink("real.txt", "link.txt")
			_, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: "link.txt", Content: "x", Precondition: mustNotExist()})
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			f.write("dir/x", "")
			_, err = f.root.WriteText(ctx, workspace.WriteRequest{Path: "dir", Content: "x", Precondition: matches("")})
			Expect(err).To(haveCode(hosterr.InvalidInput))
			_, err = f.root.WriteText(ctx, workspace.WriteRequest{Path: "real.txt/child", Content: "x", Precondition: mustNotExist()})
			Expect(err).To(haveCode(hosterr.InvalidInput))
		})

		It("serializes competing compare-and-swap writes", func() {
			f.write("race.txt", "v0")
			var wg sync.WaitGroup
			results := make([]error, 16)
			for i := range results {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, results[i] = f.root.WriteText(ctx, workspace.WriteRequest{Path: "race.txt", Content: fmt.Sprintf("v%d", i+1), Precondition: matches("v0")})
				}()
			}
			wg.Wait()
			won := 0
			for _, err := range results {
				if err == nil {
					won++
				} else {
					Expect(err).To(haveCode(hosterr.PreconditionFailed))
				}
			}
			Expect(won).To(Equal(1))
		})
	})

	Describe("ApplyPatch", func() {
		BeforeEach(func() { f.write("p.txt", "a safe b safe c\n") })

		It("replaces one exact occurrence literally", func() {
			f.write("one.txt", "cost: X\n")
			res, err := f.root.ApplyPatch(ctx, workspace.PatchRequest{Path: "one.txt", OldText: "X", NewText: "$& $$ $1"})
			Expect(err).NotTo(HaveOccurred())
			Expect(f.read("one.txt")).To(Equal("cost: $& $$ $1\n"))
			Expect(res.Replacements).To(Equal(1))
			Expect(res.BeforeContentSha256).To(Equal(sha("cost: X\n")))
			Expect(res.Writes).To(HaveLen(1))
		})

		It("needs replaceAll for several occurrences", func() {
			before := f.info("p.txt")
			_, err := f.root.ApplyPatch(ctx, workspace.PatchRequest{Path: "p.txt", OldText: "safe", NewText: "SAFE"})
			Expect(err).To(haveCode(hosterr.Conflict))
			expectUntouched("p.txt", "a safe b safe c\n", before)
			res, err := f.root.ApplyPatch(ctx, workspace.PatchRequest{Path: "p.txt", OldText: "safe", NewText: "SAFE", ReplaceAll: true})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Replacements).To(Equal(2))
			Expect(f.read("p.txt")).To(Equal("a SAFE b SAFE c\n"))
		})

		It("enforces an optional precondition and keeps the inode on rejection", func() {
			before := f.info("p.txt")
			stale := matches("old content")
			_, err := f.root.ApplyPatch(ctx, workspace.PatchRequest{Path: "p.txt", OldText: "a safe", NewText: "a risky", Precondition: &stale})
			Expect(err).To(haveCode(hosterr.PreconditionFailed))
			expectUntouched("p.txt", "a safe b safe c\n", before)
			for _, req := range []workspace.PatchRequest{
				{Path: "p.txt", OldText: "", NewText: "x"},
				{Path: "p.txt", OldText: "same", NewText: "same"},
			} {
				_, err := f.root.ApplyPatch(ctx, req)
				Expect(err).To(haveCode(hosterr.InvalidInput))
			}
			_, err = f.root.ApplyPatch(ctx, workspace.PatchRequest{Path: "p.txt", OldText: "absent", NewText: "x"})
			Expect(err).To(haveCode(hosterr.Conflict))
			expectUntouched("p.txt", "a safe b safe c\n", before)
			_, err = f.root.ApplyPatch(ctx, workspace.PatchRequest{Path: "missing.txt", OldText: "a", NewText: "b"})
			Expect(err).To(haveCode(hosterr.NotFound))
			good := matches("a safe b safe c\n")
			_, err = f.root.ApplyPatch(ctx, workspace.PatchRequest{Path: "p.txt", OldText: "a safe", NewText: "a risky", Precondition: &good})
			Expect(err).NotTo(HaveOccurred())
		})
	})

	Describe("Mkdir", func() {
		It("creates directories and reports evidence", func() {
			res, err := f.root.Mkdir(ctx, "x/y/z", true)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Created).To(BeTrue())
			Expect(res.Writes).To(HaveLen(3))
			res, err = f.root.Mkdir(ctx, "x/y/z", false)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Created).To(BeFalse())
			Expect(res.Writes).To(BeEmpty())
			_, err = f.root.Mkdir(ctx, "p/q", false)
			Expect(err).To(haveCode(hosterr.NotFound))
			f.write("file", "")
			_, err = f.root.Mkdir(ctx, "file", false)
			Expect(err).To(haveCode(hosterr.AlreadyExists))
		})
	})
})
