package workspace_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

// haveMessage matches a port error with exactly the given message.
func haveMessage(msg string) OmegaMatcher {
	return WithTransform(func(err error) string {
		we, ok := err.(*hosterr.Error)
		if !ok {
			return fmt.Sprintf("not a port error: %v", err)
		}
		return we.Message
	}, Equal(msg))
}

// Specs that pin the reference workspace at the edges of its inputs: bounds
// at their exact value, cursors at the end of their range, lines that cross
// a read chunk, and the UTF-16 order beyond the basic multilingual plane.
var _ = Describe("the reference workspace at its edges", func() {
	var f *fixture
	BeforeEach(func() { f = newFixture() })

	Describe("Grep", func() {
		grep := func(req workspace.GrepRequest) []string {
			GinkgoHelper()
			res, err := f.root.Grep(ctx, req)
			Expect(err).NotTo(HaveOccurred())
			out := []string{}
			for _, m := range res.Matches {
				out = append(out, fmt.Sprintf("%s:%d:%d", m.Path, m.Line, m.Column))
			}
			return out
		}

		It("accepts a glob of exactly MaxQueryUnits characters, and refuses one more", func() {
			f.write("a.txt", "needle\n")
			Expect(grep(workspace.GrepRequest{Query: "needle", Glob: strings.Repeat("a", workspace.MaxQueryUnits)})).To(BeEmpty())
			_, err := f.root.Grep(ctx, workspace.GrepRequest{Query: "needle", Glob: strings.Repeat("a", workspace.MaxQueryUnits+1)})
			Expect(err).To(haveCode(hosterr.InvalidInput))
		})

		It("searches files at any depth", func() {
			f.write("d/e/x.txt", "needle\n")
			Expect(grep(workspace.GrepRequest{Query: "needle"})).To(Equal([]string{"d/e/x.txt:1:1"}))
		})

		It("pages across files to the same matches as one page", func() {
			for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
				f.write(name, "n1\nx\nn2\nn3\n")
			}
			all := grep(workspace.GrepRequest{Query: "n", Limit: 100})
			Expect(all).To(HaveLen(9))
			for _, limit := range []int{1, 2, 4} {
				var paged []string
				cursor := ""
				for {
					res, err := f.root.Grep(ctx, workspace.GrepRequest{Query: "n", Limit: limit, Cursor: cursor})
					Expect(err).NotTo(HaveOccurred())
					for _, m := range res.Matches {
						paged = append(paged, fmt.Sprintf("%s:%d:%d", m.Path, m.Line, m.Column))
					}
					if !res.Pagination.HasMore {
						break
					}
					cursor = res.Pagination.NextCursor
				}
				Expect(paged).To(Equal(all), "limit %d", limit)
			}
		})

		It("counts an empty line that follows another line", func() {
			f.write("a.txt", "x\n\nneedle\n")
			Expect(grep(workspace.GrepRequest{Query: "needle"})).To(Equal([]string{"a.txt:3:1"}))
		})

		It("finds a match in a line that crosses a read chunk", func() {
			f.write("a.txt", strings.Repeat("a", workspace.SearchChunkBytes-3)+"needle\nnext\n")
			Expect(grep(workspace.GrepRequest{Query: "needle"})).To(Equal([]string{fmt.Sprintf("a.txt:1:%d", workspace.SearchChunkBytes-2)}))
		})

		It("searches a line of exactly MaxSearchLineUnits characters", func() {
			f.write("a.txt", strings.Repeat("a", workspace.MaxSearchLineUnits)+"\nneedle\n")
			Expect(grep(workspace.GrepRequest{Query: "needle"})).To(Equal([]string{"a.txt:2:1"}))
			f.write("b.txt", strings.Repeat("a", workspace.MaxSearchLineUnits+1))
			_, err := f.root.Grep(ctx, workspace.GrepRequest{Query: "needle"})
			Expect(err).To(haveCode(hosterr.LimitExceeded))
		})
	})

	It("accepts a glob pattern of exactly MaxQueryUnits characters, and refuses one more", func() {
		_, err := f.root.Glob(ctx, workspace.GlobRequest{Pattern: strings.Repeat("a", workspace.MaxQueryUnits)})
		Expect(err).NotTo(HaveOccurred())
		_, err = f.root.Glob(ctx, workspace.GlobRequest{Pattern: strings.Repeat("a", workspace.MaxQueryUnits+1)})
		Expect(err).To(haveCode(hosterr.InvalidInput))
	})

	Describe("List and Stat", func() {
		It("accepts depth 1 given explicitly", func() {
			f.write("d/x.txt", "x\n")
			res, err := f.root.List(ctx, workspace.ListRequest{Path: ".", Depth: 1})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Entries).To(HaveLen(1))
		})

		It("lists exactly as many levels as the depth asks", func() {
			f.write("a/b/c/d.txt", "")
			for depth, want := range map[int][]string{2: {"a", "a/b"}, 3: {"a", "a/b", "a/b/c"}} {
				res, err := f.root.List(ctx, workspace.ListRequest{Path: ".", Depth: depth})
				Expect(err).NotTo(HaveOccurred())
				var got []string
				for _, e := range res.Entries {
					got = append(got, e.Path)
				}
				Expect(got).To(Equal(want), "depth %d", depth)
			}
		})

		It("accepts depth MaxListDepth", func() {
			f.write("d/x.txt", "x\n")
			res, err := f.root.List(ctx, workspace.ListRequest{Path: ".", Depth: workspace.MaxListDepth})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Entries).To(HaveLen(2))
		})

		It("orders names beyond the basic multilingual plane by their UTF-16 units", func() {
			names := []string{"\uE000", "\U00010400", "\U00010001", "\U00010000"}
			for _, n := range names {
				f.write(n, "")
			}
			res, err := f.root.List(ctx, workspace.ListRequest{Path: "."})
			Expect(err).NotTo(HaveOccurred())
			var got []string
			for _, e := range res.Entries {
				got = append(got, e.Name)
			}
			Expect(got).To(Equal([]string{"\U00010000", "\U00010001", "\U00010400", "\uE000"}))
		})

		It("orders two names beyond the basic multilingual plane by the second unit before what follows", func() {
			f.write("\U00010001a", "")
			f.write("\U00010000b", "")
			res, err := f.root.List(ctx, workspace.ListRequest{Path: "."})
			Expect(err).NotTo(HaveOccurred())
			Expect([]string{res.Entries[0].Name, res.Entries[1].Name}).To(Equal([]string{"\U00010000b", "\U00010001a"}))
		})

		It("accepts offset cursors with the digit 9 and up to the largest safe integer", func() {
			for i := range 10 {
				f.write(fmt.Sprintf("f%d.txt", i), "")
			}
			res, err := f.root.List(ctx, workspace.ListRequest{Path: ".", Cursor: "offset:9"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Entries).To(HaveLen(1))
			_, err = f.root.List(ctx, workspace.ListRequest{Path: ".", Cursor: "offset:9007199254740991"})
			Expect(err).To(haveMessage("Pagination cursor is outside the result set."))
			_, err = f.root.List(ctx, workspace.ListRequest{Path: ".", Cursor: "offset:9007199254740992"})
			Expect(err).To(haveMessage("Invalid pagination cursor."))
			_, err = f.root.List(ctx, workspace.ListRequest{Path: ".", Cursor: "offset:+1"})
			Expect(err).To(haveMessage("Invalid pagination cursor."))
		})

		It("reports the modification time in milliseconds", func() {
			f.write("a.txt", "a\n")
			st, err := f.root.Stat(ctx, "a.txt")
			Expect(err).NotTo(HaveOccurred())
			Expect(*st.MtimeMs).To(BeNumerically("~", float64(time.Now().UnixMilli()), float64(time.Hour.Milliseconds())))
		})

		It("hashes a file of exactly MaxReadFileBytes, and not one byte more", func() {
			big := f.abs("big.bin")
			Expect(os.WriteFile(big, nil, 0o644)).To(Succeed())
			Expect(os.Truncate(big, workspace.MaxReadFileBytes)).To(Succeed())
			st, err := f.root.Stat(ctx, "big.bin")
			Expect(err).NotTo(HaveOccurred())
			Expect(st.ContentSha256).To(Equal(workspace.SHA256Hex(make([]byte, workspace.MaxReadFileBytes))))
			Expect(os.Truncate(big, workspace.MaxReadFileBytes+1)).To(Succeed())
			st, err = f.root.Stat(ctx, "big.bin")
			Expect(err).NotTo(HaveOccurred())
			Expect(st.ContentSha256).To(BeEmpty())
		})
	})

	Describe("ReadText", func() {
		read := func(req workspace.ReadRequest) workspace.ReadResult {
			GinkgoHelper()
			res, err := f.root.ReadText(ctx, req)
			Expect(err).NotTo(HaveOccurred())
			return res
		}

		It("reads a file of exactly MaxReadFileBytes", func() {
			big := f.abs("big.txt")
			Expect(os.WriteFile(big, nil, 0o644)).To(Succeed())
			Expect(os.Truncate(big, workspace.MaxReadFileBytes)).To(Succeed())
			res := read(workspace.ReadRequest{Path: "big.txt"})
			Expect(res.Truncated).To(BeTrue())
		})

		It("continues a cursor given again with the line range it was issued for", func() {
			content := "one\ntwo two\nthree\nfour\n"
			f.write("a.txt", content)
			first := read(workspace.ReadRequest{Path: "a.txt", StartLine: 2, EndLine: 3, MaxBytes: 5})
			Expect(first.Truncated).To(BeTrue())
			next := read(workspace.ReadRequest{Path: "a.txt", StartLine: 2, EndLine: 3, MaxBytes: 100, Cursor: first.Pagination.NextCursor})
			Expect(first.Content + next.Content).To(Equal("two two\nthree"))
			Expect(next.StartLine).To(Equal(2))
			_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "a.txt", StartLine: 1, Cursor: first.Pagination.NextCursor})
			Expect(err).To(haveMessage("Line range does not match the text cursor."))
			_, err = f.root.ReadText(ctx, workspace.ReadRequest{Path: "a.txt", EndLine: 4, Cursor: first.Pagination.NextCursor})
			Expect(err).To(haveMessage("Line range does not match the text cursor."))
		})

		It("numbers the lines of a continued chunk from where it starts", func() {
			f.write("a.txt", "aaaa\nbbbb\ncccc\n")
			first := read(workspace.ReadRequest{Path: "a.txt", MaxBytes: 5})
			Expect(first.Content).To(Equal("aaaa\n"))
			next := read(workspace.ReadRequest{Path: "a.txt", MaxBytes: 5, Cursor: first.Pagination.NextCursor})
			Expect(next.Content).To(Equal("bbbb\n"))
			Expect([]int{next.StartLine, next.EndLine}).To(Equal([]int{2, 3}))
		})

		It("selects an empty line on its own", func() {
			f.write("a.txt", "a\n\nb\n")
			res := read(workspace.ReadRequest{Path: "a.txt", StartLine: 2, EndLine: 2})
			Expect(res.Content).To(Equal(""))
			Expect([]int{res.StartLine, res.EndLine}).To(Equal([]int{2, 2}))
		})

		It("reads nothing, without an error, from a cursor at the end of the range", func() {
			f.write("a.txt", "abc\n")
			res := read(workspace.ReadRequest{Path: "a.txt", Cursor: fmt.Sprintf("text:%s:1:1:3", sha("abc\n"))})
			Expect(res.Content).To(BeEmpty())
			Expect(res.Truncated).To(BeFalse())
			_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "a.txt", Cursor: fmt.Sprintf("text:%s:1:1:4", sha("abc\n"))})
			Expect(err).To(haveMessage("Text cursor is outside the requested range."))
		})

		It("ends a chunk before a character that does not fit", func() {
			f.write("a.txt", "aaaé")
			res := read(workspace.ReadRequest{Path: "a.txt", MaxBytes: 4})
			Expect(res.Content).To(Equal("aaa"))
		})

		It("parses text cursors strictly", func() {
			f.write("a.txt", "abc\n")
			h := sha("abc\n")
			_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "a.txt", Cursor: "text:" + strings.Repeat("g", 64) + ":1:1:0"})
			Expect(err).To(haveMessage("Invalid text pagination cursor."))
			_, err = f.root.ReadText(ctx, workspace.ReadRequest{Path: "a.txt", Cursor: "text:" + h + ":+1:1:0"})
			Expect(err).To(haveMessage("Invalid text pagination cursor."))
			_, err = f.root.ReadText(ctx, workspace.ReadRequest{Path: "a.txt", Cursor: "text:" + h + ":1:1:9007199254740992"})
			Expect(err).To(haveMessage("Invalid text pagination cursor."))
			_, err = f.root.ReadText(ctx, workspace.ReadRequest{Path: "a.txt", Cursor: "text:" + h + ":1:1:9007199254740991"})
			Expect(err).To(haveMessage("Text cursor is outside the requested range."))
			_, err = f.root.WriteText(ctx, workspace.WriteRequest{Path: "a.txt", Content: "x", Precondition: workspace.Precondition{Kind: workspace.MatchesSHA256, ContentSha256: strings.Repeat("g", 64)}})
			Expect(err).To(haveCode(hosterr.InvalidInput))
		})
	})

	Describe("paths", func() {
		DescribeTable("refuses a drive letter of either case as an absolute path",
			func(p string) {
				_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: p})
				Expect(err).To(haveCode(hosterr.PermissionDenied))
			},
			Entry("a:", "a:"), Entry("a:x", "a:x"), Entry("z:x", "z:x"), Entry("A:x", "A:x"), Entry("Z:x", "Z:x"),
		)

		DescribeTable("takes a colon after any other character as part of a name",
			func(p string) {
				if runtime.GOOS == "windows" {
					Skip("a colon names a drive or a stream on Windows")
				}
				_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: p})
				Expect(err).To(haveCode(hosterr.NotFound))
			},
			Entry("`:x", "`:x"), Entry("{:x", "{:x"), Entry("@:x", "@:x"), Entry("[:x", "[:x"), Entry("ab:x", "ab:x"),
		)

		It("reads a file whose name has a colon on systems other than Windows", func() {
			if runtime.GOOS == "windows" {
				Skip("a colon names a drive or a stream on Windows")
			}
			f.write("d/a:b.txt", "colon\n")
			res, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "d/a:b.txt"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Content).To(Equal("colon\n"))
		})
	})

	It("watches every entry of an active .git directory, not only the first", func() {
		f.write(".git/HEAD", "ref: a\n")
		f.write(".git/config", "[core]\n")
		f.write(".git/refs/heads/main", "abc\n")
		active := []port.ActiveFile{{Path: ".git", Kind: workspace.KindDirectory}}
		Expect(f.matchesAfterWrite(active, ".git/refs/heads/main", "abcdef, longer\n")).To(BeFalse())
	})

	It("watches the entries of an active .git directory that follow a subdirectory", func() {
		f.write(".git/a/x", "x\n")
		f.write(".git/z", "z\n")
		active := []port.ActiveFile{{Path: ".git", Kind: workspace.KindDirectory}}
		Expect(f.matchesAfterWrite(active, ".git/z", "z, longer\n")).To(BeFalse(), "a change to .git/z, after the subdirectory .git/a, is seen")
	})

	It("takes a snapshot of exactly its entry and byte bounds, and refuses one less", func() {
		f.write("a.txt", "abc")
		f.write("d/b.txt", "de")
		_, err := f.root.Snapshot(ctx, workspace.SnapshotOptions{MaxEntries: 3, MaxHashedBytes: 5})
		Expect(err).NotTo(HaveOccurred())
		_, err = f.root.Snapshot(ctx, workspace.SnapshotOptions{MaxEntries: 2, MaxHashedBytes: 5})
		Expect(err).To(haveCode(hosterr.LimitExceeded))
		_, err = f.root.Snapshot(ctx, workspace.SnapshotOptions{MaxEntries: 3, MaxHashedBytes: 4})
		Expect(err).To(haveCode(hosterr.LimitExceeded))
	})

	It("says that a missing path does not exist", func() {
		_, err := f.root.ReadText(ctx, workspace.ReadRequest{Path: "nope.txt"})
		Expect(err).To(haveCode(hosterr.NotFound))
		Expect(err).To(haveMessage("Workspace path does not exist: 'nope.txt'."))
	})
})
