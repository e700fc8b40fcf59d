package workspace_test

import (
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

var _ = Describe("path scope", func() {
	var f *fixture
	BeforeEach(func() {
		f = newFixture()
		f.write("src/a.txt", "alpha\n")
	})

	DescribeTable("lexical escapes are refused before any file-system access",
		func(p string, code hosterr.Code) {
			_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: p})
			Expect(err).To(haveCode(code))
			_, err = f.root.WriteText(ctx, workspace.WriteRequest{Path: p, Content: "x", Precondition: workspace.Precondition{Kind: workspace.MustNotExist}})
			Expect(err).To(haveCode(code))
		},
		Entry("parent", "../outside/secret.txt", hosterr.PermissionDenied),
		Entry("nested parent", "src/../../outside/secret.txt", hosterr.PermissionDenied),
		Entry("bare parent", "..", hosterr.PermissionDenied),
		Entry("absolute", "/etc/passwd", hosterr.PermissionDenied),
		Entry("drive letter", "C:/project/a.txt", hosterr.PermissionDenied),
		Entry("backslash", `src\a.txt`, hosterr.InvalidInput),
		Entry("backslash escape", `..\outside\secret.txt`, hosterr.InvalidInput),
		Entry("null byte", "src/a\x00.txt", hosterr.InvalidInput),
	)

	It("resolves a non-escaping '..' lexically", func() {
		res, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "src/../src/a.txt"})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Content).To(Equal("alpha\n"))
	})

	It("refuses to mutate the root", func() {
		_, err := f.root.Mkdir(ctx, ".", false)
		Expect(err).To(haveCode(hosterr.PermissionDenied))
		Expect(err.(*hosterr.Error).Message).To(Equal("Mutating the workspace root is not allowed."))
	})

	It("matches errors by code with errors.Is", func() {
		_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "missing.txt"})
		Expect(errors.Is(err, workspace.ErrNotFound)).To(BeTrue())
		Expect(errors.Is(err, workspace.ErrPermissionDenied)).To(BeFalse())
	})

	Describe("symlink escapes", func() {
		It("refuses a final-component link to an outside file for reads, stat, search and writes", func() {
			f.symlink(filepath.Join(f.outside, "secret.txt"), "leak.txt")
			_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "leak.txt"})
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			_, err = f.root.WriteText(ctx, workspace.WriteRequest{Path: "leak.txt", Content: "pwned", Precondition: workspace.Precondition{Kind: workspace.MatchesSHA256, ContentSha256: sha("secret\n")}})
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			_, err = f.root.ApplyPatch(ctx, workspace.PatchRequest{Path: "leak.txt", OldText: "secret", NewText: "pwned"})
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			st, err := f.root.Stat(ctx, "leak.txt")
			Expect(err).NotTo(HaveOccurred())
			Expect(st.Kind).To(Equal(workspace.KindSymlink))
			Expect(st.ContentSha256).To(BeEmpty())
			Expect(os.ReadFile(filepath.Join(f.outside, "secret.txt"))).To(Equal([]byte("secret\n")))
		})

		It("refuses a middle-component link to an outside directory", func() {
			f.symlink(f.outside, "escape")
			_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "escape/secret.txt"})
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			_, err = f.root.Stat(ctx, "escape/secret.txt")
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			_, err = f.root.List(ctx, workspace.ListRequest{Path: "escape"})
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			_, err = f.root.Grep(ctx, workspace.GrepRequest{Query: "secret", Path: "escape"})
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			_, err = f.root.WriteText(ctx, workspace.WriteRequest{Path: "escape/new.txt", Content: "x", Precondition: workspace.Precondition{Kind: workspace.MustNotExist}})
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			_, err = f.root.Mkdir(ctx, "escape/sub", true)
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			_, err = f.root.ResolveDir("escape")
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			Expect(filepath.Join(f.outside, "new.txt")).NotTo(BeAnExistingFile())
			Expect(filepath.Join(f.outside, "sub")).NotTo(BeADirectory())
		})

		It("lists an escaping link as a symlink without entering it and never greps through it", func() {
			f.symlink(f.outside, "escape")
			res, err := f.root.List(ctx, workspace.ListRequest{Path: ".", Depth: 5})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Entries).To(ContainElement(workspace.Entry{Kind: "symlink", Name: "escape", Path: "escape"}))
			for _, e := range res.Entries {
				Expect(e.Path).NotTo(HavePrefix("escape/"))
			}
			g, err := f.root.Grep(ctx, workspace.GrepRequest{Query: "secret"})
			Expect(err).NotTo(HaveOccurred())
			Expect(g.Matches).To(BeEmpty())
		})

		It("follows links that stay inside the root for reads but never for writes", func() {
			f.symlink("src", "alias")
			res, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "alias/a.txt"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Content).To(Equal("alpha\n"))
			_, err = f.root.WriteText(ctx, workspace.WriteRequest{Path: "alias/a.txt", Content: "beta\n", Precondition: workspace.Precondition{Kind: workspace.MatchesSHA256, ContentSha256: sha("alpha\n")}})
			Expect(err).To(haveCode(hosterr.PermissionDenied))
			Expect(f.read("src/a.txt")).To(Equal("alpha\n"))
		})
	})

	It("accepts Unicode, spaces and shell metacharacters as plain names", func() {
		names := []string{"dir with space/ümlaut ✓.txt", "weird/$(echo pwned) `x` ; rm -rf & | > <.txt", "quotes/'single' \"double\".txt"}
		for _, n := range names {
			res, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: n, Content: n, Precondition: workspace.Precondition{Kind: workspace.MustNotExist}})
			Expect(err).NotTo(HaveOccurred(), n)
			Expect(res.Length).To(BeNumerically(">", 0))
			Expect(f.read(n)).To(Equal(n))
			g, err := f.root.Glob(ctx, workspace.GlobRequest{Pattern: "**/" + filepath.Base(n)})
			Expect(err).NotTo(HaveOccurred())
			Expect(g.Matches).To(Equal([]string{n}))
		}
	})

	It("rejects a relative root", func() {
		_, err := workspace.Open("relative/dir")
		Expect(err).To(HaveOccurred())
	})
})
