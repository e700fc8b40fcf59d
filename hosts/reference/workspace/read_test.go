package workspace_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

var _ = Describe("read side", func() {
	var f *fixture
	BeforeEach(func() { f = newFixture() })

	Describe("List", func() {
		BeforeEach(func() {
			f.write("b.txt", "b")
			f.write("a/z.txt", "z")
			f.write("a/deep/x.txt", "x")
			f.write("node_modules/pkg/index.js", "")
			f.write(".git/HEAD", "")
			f.write("c.txt"+workspace.LockSuffix, "")
			Expect(os.WriteFile(f.abs("dist"), []byte("a file named dist is listed"), 0o644)).To(Succeed())
		})

		It("lists depth-first in deterministic order, hiding exclusions and lock files", func() {
			res, err := f.root.List(ctx, workspace.ListRequest{Path: ".", Depth: 3})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Entries).To(Equal([]workspace.Entry{
				{Kind: "directory", Name: "a", Path: "a"},
				{Kind: "directory", Name: "deep", Path: "a/deep"},
				{Kind: "file", Name: "x.txt", Path: "a/deep/x.txt"},
				{Kind: "file", Name: "z.txt", Path: "a/z.txt"},
				{Kind: "file", Name: "b.txt", Path: "b.txt"},
				{Kind: "file", Name: "dist", Path: "dist"},
			}))
			Expect(res.Pagination).To(Equal(workspace.Pagination{}))
		})

		It("pages with offset cursors", func() {
			var got []string
			cursor := ""
			for range 10 {
				res, err := f.root.List(ctx, workspace.ListRequest{Path: ".", Depth: 3, Limit: 4, Cursor: cursor})
				Expect(err).NotTo(HaveOccurred())
				for _, e := range res.Entries {
					got = append(got, e.Path)
				}
				if !res.Pagination.HasMore {
					break
				}
				Expect(res.Pagination.NextCursor).To(Equal("offset:4"))
				cursor = res.Pagination.NextCursor
			}
			Expect(got).To(Equal([]string{"a", "a/deep", "a/deep/x.txt", "a/z.txt", "b.txt", "dist"}))
		})

		DescribeTable("rejects bad requests",
			func(req workspace.ListRequest, msg string) {
				_, err := f.root.List(ctx, req)
				Expect(err).To(haveCode(hosterr.InvalidInput))
				Expect(err.(*hosterr.Error).Message).To(Equal(msg))
			},
			Entry("depth", workspace.ListRequest{Path: ".", Depth: 21}, "Depth must be between 1 and 20."),
			Entry("cursor", workspace.ListRequest{Path: ".", Cursor: "page:2"}, "Invalid pagination cursor."),
			Entry("cursor past the end", workspace.ListRequest{Path: ".", Cursor: "offset:99"}, "Pagination cursor is outside the result set."),
			Entry("limit", workspace.ListRequest{Path: ".", Limit: -1}, "Pagination limit must be a positive integer."),
			Entry("file", workspace.ListRequest{Path: "b.txt"}, "Workspace traversal requires a directory path."),
		)

		It("bounds traversal by its entry cap", func() {
			Expect(workspace.MaxTraversalEntries).To(Equal(100_000))
			workspace.SetMaxEntries(f.root, 5)
			_, err := f.root.List(ctx, workspace.ListRequest{Path: ".", Depth: 3})
			Expect(err).To(haveCode(hosterr.LimitExceeded))
			_, err = f.root.Glob(ctx, workspace.GlobRequest{Pattern: "**"})
			Expect(err).To(haveCode(hosterr.LimitExceeded))
			workspace.SetMaxEntries(f.root, 6)
			res, err := f.root.List(ctx, workspace.ListRequest{Path: ".", Depth: 3})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Entries).To(HaveLen(6))
		})

		It("pages a large directory at the default limit", func() {
			for i := range 150 {
				f.write(fmt.Sprintf("many/%03d", i), "")
			}
			res, err := f.root.List(ctx, workspace.ListRequest{Path: "many"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Entries).To(HaveLen(100))
			Expect(res.Pagination.NextCursor).To(Equal("offset:100"))
		})
	})

	Describe("ReadText", func() {
		It("reads line ranges and reports the raw-bytes hash", func() {
			f.write("f.txt", "one\ntwo\r\nthree\n")
			res, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "f.txt", StartLine: 2, EndLine: 3})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Content).To(Equal("two\r\nthree"))
			Expect(res.StartLine).To(Equal(2))
			Expect(res.EndLine).To(Equal(3))
			Expect(res.ContentSha256).To(Equal(sha("one\ntwo\r\nthree\n")))
			Expect(res.Truncated).To(BeFalse())
			whole, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "f.txt", EndLine: 99})
			Expect(err).NotTo(HaveOccurred())
			Expect(whole.Content).To(Equal("one\ntwo\r\nthree\n"))
			Expect(whole.EndLine).To(Equal(4))
			_, err = f.root.ReadText(ctx, workspace.ReadRequest{Path: "f.txt", StartLine: 5})
			Expect(err).To(haveCode(hosterr.InvalidInput))
		})

		It("keeps a byte-order mark and hashes raw bytes (DECISIONS 47)", func() {
			f.write("bom.txt", "\ufeffhello")
			res, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "bom.txt"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Content).To(Equal("\ufeffhello"))
			st, err := f.root.Stat(ctx, "bom.txt")
			Expect(err).NotTo(HaveOccurred())
			Expect(res.ContentSha256).To(Equal(st.ContentSha256))
		})

		It("chunks on UTF-8 boundaries and rejects a stale cursor", func() {
			f.write("e.txt", "ééé\nline two\n")
			res, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "e.txt", MaxBytes: 4})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Content).To(Equal("éé"))
			Expect(res.Truncated).To(BeTrue())
			Expect(res.Pagination.NextCursor).To(Equal(fmt.Sprintf("text:%s:1:3:4", sha("ééé\nline two\n"))))
			var parts []string
			parts = append(parts, res.Content)
			cursor := res.Pagination.NextCursor
			for cursor != "" {
				next, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "e.txt", MaxBytes: 4, Cursor: cursor})
				Expect(err).NotTo(HaveOccurred())
				parts = append(parts, next.Content)
				cursor = next.Pagination.NextCursor
			}
			Expect(strings.Join(parts, "")).To(Equal("ééé\nline two\n"))

			f.write("e.txt", "changed\n")
			_, err = f.root.ReadText(ctx, workspace.ReadRequest{Path: "e.txt", MaxBytes: 4, Cursor: res.Pagination.NextCursor})
			Expect(err).To(haveCode(hosterr.Conflict))
		})

		It("rejects a cursor inside a character and a too-small maxBytes", func() {
			f.write("e.txt", "ééé")
			_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "e.txt", Cursor: fmt.Sprintf("text:%s:1:1:1", sha("ééé"))})
			Expect(err).To(haveCode(hosterr.InvalidInput))
			f.write("emoji.txt", "😀😀")
			_, err = f.root.ReadText(ctx, workspace.ReadRequest{Path: "emoji.txt", MaxBytes: 3})
			Expect(err).To(haveCode(hosterr.InvalidInput))
		})

		It("rejects invalid UTF-8 without lossy decoding, while Stat hashes raw bytes", func() {
			raw := []byte{'o', 'k', 0xff, 0xfe, '\n'}
			Expect(os.WriteFile(f.abs("bad.bin"), raw, 0o644)).To(Succeed())
			_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "bad.bin"})
			Expect(err).To(haveCode(hosterr.InvalidInput))
			st, err := f.root.Stat(ctx, "bad.bin")
			Expect(err).NotTo(HaveOccurred())
			Expect(st.ContentSha256).To(Equal(workspace.SHA256Hex(raw)))
		})

		It("reports missing paths and non-files", func() {
			_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "nope.txt"})
			Expect(err).To(haveCode(hosterr.NotFound))
			f.write("d/x", "")
			_, err = f.root.ReadText(ctx, workspace.ReadRequest{Path: "d"})
			Expect(err).To(haveCode(hosterr.InvalidInput))
			st, err := f.root.Stat(ctx, "nope/deeper.txt")
			Expect(err).NotTo(HaveOccurred())
			Expect(st.Kind).To(Equal("missing"))
		})

		It("fails closed on a canceled context", func() {
			f.write("f.txt", "x")
			c, cancel := contextWithCancel()
			cancel()
			_, err := f.root.ReadText(c, workspace.ReadRequest{Path: "f.txt"})
			Expect(err).To(haveCode(hosterr.Canceled))
			_, err = f.root.WriteText(c, workspace.WriteRequest{Path: "g.txt", Content: "x", Precondition: workspace.Precondition{Kind: workspace.MustNotExist}})
			Expect(err).To(haveCode(hosterr.Canceled))
			Expect(f.abs("g.txt")).NotTo(BeAnExistingFile())
		})
	})

	Describe("Glob", func() {
		BeforeEach(func() {
			f.write("src/a.ts", "")
			f.write("src/nested/b.ts", "")
			f.write("src/c.py", "")
			f.write("lit/x.{ts,py}", "")
		})

		It("matches relative to the base path", func() {
			res, err := f.root.Glob(ctx, workspace.GlobRequest{Pattern: "*.ts", Path: "src"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Matches).To(Equal([]string{"src/a.ts"}))
			res, err = f.root.Glob(ctx, workspace.GlobRequest{Pattern: "**/*.ts", Path: "src"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Matches).To(Equal([]string{"src/a.ts", "src/nested/b.ts"}))
		})

		It("is case-insensitive, filters kinds and treats braces literally", func() {
			res, err := f.root.Glob(ctx, workspace.GlobRequest{Pattern: "SRC/*.TS"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Matches).To(Equal([]string{"src/a.ts"}))
			res, err = f.root.Glob(ctx, workspace.GlobRequest{Pattern: "**/*.{ts,py}"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Matches).To(Equal([]string{"lit/x.{ts,py}"}))
			res, err = f.root.Glob(ctx, workspace.GlobRequest{Pattern: "**", Kind: "directory"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Matches).To(Equal([]string{"lit", "src", "src/nested"}))
			_, err = f.root.Glob(ctx, workspace.GlobRequest{Pattern: ""})
			Expect(err).To(haveCode(hosterr.InvalidInput))
		})
	})

	Describe("Grep", func() {
		It("finds literal, case-insensitive and regex matches with UTF-16 columns", func() {
			f.write("a.txt", "héllo World\nworld again\n")
			f.write("b.md", "no match\n")
			res, err := f.root.Grep(ctx, workspace.GrepRequest{Query: "World"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Matches).To(Equal([]workspace.TextMatch{{Path: "a.txt", Line: 1, Column: 7, Preview: "héllo World", ContentSha256: sha("héllo World\nworld again\n")}}))
			no := false
			res, err = f.root.Grep(ctx, workspace.GrepRequest{Query: "WORLD", CaseSensitive: &no})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Matches).To(HaveLen(2))
			res, err = f.root.Grep(ctx, workspace.GrepRequest{Query: `w\w+d`, Regex: true, Glob: "*.txt"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Matches).To(HaveLen(1))
			Expect(res.Matches[0].Line).To(Equal(2))
			_, err = f.root.Grep(ctx, workspace.GrepRequest{Query: "(", Regex: true})
			Expect(err).To(haveCode(hosterr.InvalidInput))
		})

		It("skips invalid UTF-8 files and pages by match count", func() {
			Expect(os.WriteFile(f.abs("bad.txt"), []byte("needle\xff\n"), 0o644)).To(Succeed())
			var lines []string
			for i := range 5 {
				lines = append(lines, fmt.Sprintf("needle %d", i))
			}
			f.write("good.txt", strings.Join(lines, "\n"))
			var seen []int
			cursor := ""
			for {
				res, err := f.root.Grep(ctx, workspace.GrepRequest{Query: "needle", Limit: 2, Cursor: cursor})
				Expect(err).NotTo(HaveOccurred())
				for _, m := range res.Matches {
					Expect(m.Path).To(Equal("good.txt"))
					seen = append(seen, m.Line)
				}
				if !res.Pagination.HasMore {
					break
				}
				cursor = res.Pagination.NextCursor
			}
			Expect(seen).To(Equal([]int{1, 2, 3, 4, 5}))
			_, err := f.root.Grep(ctx, workspace.GrepRequest{Query: "needle", Cursor: "offset:9"})
			Expect(err).To(haveCode(hosterr.InvalidInput))
		})

		It("streams a large log in bounded output", func() {
			line := strings.Repeat("x", 99) + "\n"
			big := strings.Repeat(line, 210_000) // about 21 MB
			content := big[:len(big)/2] + "MARKER found here\n" + big[len(big)/2:]
			f.write("service.log", content)
			res, err := f.root.Grep(ctx, workspace.GrepRequest{Query: "MARKER"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Matches).To(HaveLen(1))
			Expect(res.Matches[0].ContentSha256).To(Equal(sha(content)))
			Expect(len(res.Matches[0].Preview)).To(BeNumerically("<=", workspace.PreviewUnits))
			out, _ := json.Marshal(res)
			Expect(len(out)).To(BeNumerically("<", 2000))
		})

		It("fails the search on an over-long line", func() {
			f.write("long.txt", strings.Repeat("y", workspace.MaxSearchLineUnits+10))
			_, err := f.root.Grep(ctx, workspace.GrepRequest{Query: "zzz"})
			Expect(err).To(haveCode(hosterr.LimitExceeded))
		})
	})
})
