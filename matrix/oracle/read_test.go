package oracle_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

var _ = Describe("ReadFiles", func() {
	It("reads each expected file's final state", func() {
		dir := GinkgoT().TempDir()
		outside := GinkgoT().TempDir()
		write(dir, "a.txt", "a\n")
		write(dir, "d/x.txt", "x")
		write(dir, "bad.bin", "\xff\xfe")
		write(outside, "secret.txt", "secret")
		Expect(os.Symlink("a.txt", filepath.Join(dir, "in"))).To(Succeed())
		Expect(os.Symlink("d", filepath.Join(dir, "dirlink"))).To(Succeed())
		Expect(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "out"))).To(Succeed())
		root, err := os.OpenRoot(dir)
		Expect(err).NotTo(HaveOccurred())
		defer root.Close()

		fx := &fixture.Fixture{Expected: &fixture.Expected{Files: []fixture.ExpectedFile{
			{Path: "a.txt"}, {Path: "d"}, {Path: "missing.txt", Absent: true}, {Path: "bad.bin"},
			{Path: "in"}, {Path: "dirlink"}, {Path: "out"}, {Path: "a.txt", Unchanged: true},
		}}}
		got := oracle.ReadFiles(root.FS(), fx)
		Expect(got).To(HaveLen(7))
		Expect(got).To(HaveKeyWithValue("a.txt", oracle.File{Kind: "file", Content: "a\n"}))
		Expect(got).To(HaveKeyWithValue("d", oracle.File{Kind: "directory", ErrorCode: "INVALID_INPUT"}))
		Expect(got).To(HaveKeyWithValue("missing.txt", oracle.File{Kind: "missing", ErrorCode: "NOT_FOUND"}))
		Expect(got).To(HaveKeyWithValue("bad.bin", oracle.File{Kind: "file", ErrorCode: "INVALID_INPUT"}))
		Expect(got).To(HaveKeyWithValue("in", oracle.File{Kind: "symlink", Content: "a\n"}))
		Expect(got).To(HaveKeyWithValue("dirlink", oracle.File{Kind: "symlink", ErrorCode: "INVALID_INPUT"}))
		Expect(got["out"].Kind).To(Equal("symlink"))
		Expect(got["out"].Content).To(BeEmpty(), "a link out of the workspace must not be read")
		Expect(got["out"].ErrorCode).To(BeElementOf("PERMISSION_DENIED", "IO_ERROR"))
	})

	It("reads nothing for a fixture without expectations", func() {
		Expect(oracle.ReadFiles(os.DirFS(GinkgoT().TempDir()), &fixture.Fixture{})).To(BeEmpty())
	})

	It("reports a path the runner never read instead of passing it", func() {
		r := baseRun()
		r.obs.Files = nil
		Expect(oracle.Check(r.fx, r.obs)).To(HaveExactElements(
			HaveField("Message", "Expected file 'a.txt' is unreadable: NOT_OBSERVED."),
			HaveField("Message", "Expected file 'src/b.txt' is unreadable: NOT_OBSERVED."),
			HaveField("Message", "Expected file 'gone.txt' to be absent."),
		))
	})
})
