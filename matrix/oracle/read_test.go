package oracle_test

import (
	"os"
	"path/filepath"

	"github.com/galaxy-stack/conform/internal/wsfs"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/oracle"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// openRoot opens dir as a workspace root for the spec.
func openRoot(dir string) *wsfs.Root {
	GinkgoHelper()
	root, err := wsfs.Open(dir)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(root.Close)
	return root
}

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

		fx := &fixture.Fixture{Expected: &fixture.Expected{Files: []fixture.ExpectedFile{
			{Path: "a.txt"}, {Path: "d"}, {Path: "missing.txt", Absent: true}, {Path: "bad.bin"},
			{Path: "in"}, {Path: "dirlink"}, {Path: "out"}, {Path: "a.txt", Unchanged: true},
			{Path: "dirlink/x.txt"}, {Path: "dirlink/none", Absent: true},
		}}}
		got := oracle.ReadFiles(openRoot(dir), fx, 0)
		Expect(got).To(HaveLen(9))
		Expect(got).To(HaveKeyWithValue("a.txt", oracle.File{Kind: "file", Content: "a\n"}))
		Expect(got).To(HaveKeyWithValue("d", oracle.File{Kind: "directory", ErrorCode: "INVALID_INPUT"}))
		Expect(got).To(HaveKeyWithValue("missing.txt", oracle.File{Kind: "missing", ErrorCode: "NOT_FOUND"}))
		Expect(got).To(HaveKeyWithValue("bad.bin", oracle.File{Kind: "file", ErrorCode: "INVALID_INPUT"}))
		Expect(got).To(HaveKeyWithValue("in", oracle.File{Kind: "symlink", Content: "a\n"}))
		Expect(got).To(HaveKeyWithValue("dirlink", oracle.File{Kind: "symlink", ErrorCode: "INVALID_INPUT"}))
		Expect(got).To(HaveKeyWithValue("dirlink/x.txt", oracle.File{Kind: "file", Content: "x"}))
		Expect(got).To(HaveKeyWithValue("dirlink/none", oracle.File{Kind: "missing", ErrorCode: "NOT_FOUND"}))
		Expect(got).To(HaveKeyWithValue("out", oracle.File{Kind: "symlink", Target: filepath.Join(outside, "secret.txt"), ErrorCode: "PERMISSION_DENIED"}),
			"a link out of the workspace is reported as a link, never read")
	})

	It("never quotes what lies behind a link that leaves the workspace", func() {
		parent := GinkgoT().TempDir()
		ws := filepath.Join(parent, "workspace")
		write(parent, "outside/secret.txt", "TOPSECRET first line\n")
		write(ws, "ok.txt", "ok\n")
		Expect(os.Symlink("../outside/secret.txt", filepath.Join(ws, "s"))).To(Succeed())
		Expect(os.Symlink("..", filepath.Join(ws, "up"))).To(Succeed())
		want := "x"
		fx := &fixture.Fixture{File: "f.json", Expected: &fixture.Expected{Files: []fixture.ExpectedFile{
			{Path: "s", Content: &want}, {Path: "up/outside/secret.txt", Content: &want},
		}}}
		obs := &oracle.Observed{Status: fixture.StatusCompleted, Files: oracle.ReadFiles(openRoot(ws), fx, 0)}
		fails := oracle.Check(fx, obs)
		Expect(fails).NotTo(BeEmpty())
		for _, f := range fails {
			Expect(f.String()).NotTo(ContainSubstring("TOPSECRET"))
		}
		Expect(obs.Files["s"]).To(Equal(oracle.File{Kind: "symlink", Target: "../outside/secret.txt", ErrorCode: "PERMISSION_DENIED"}))
		Expect(obs.Files["up/outside/secret.txt"]).To(Equal(oracle.File{Kind: "symlink", Target: "..", ErrorCode: "PERMISSION_DENIED"}))
	})

	It("caps each read, refusing a huge sparse file from its size", func() {
		dir := GinkgoT().TempDir()
		f, err := os.Create(filepath.Join(dir, "huge"))
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Truncate(64 << 30)).To(Succeed())
		Expect(f.Close()).To(Succeed())
		Expect(os.Symlink("huge", filepath.Join(dir, "link"))).To(Succeed())
		write(dir, "small.txt", "12345")
		fx := &fixture.Fixture{Expected: &fixture.Expected{Files: []fixture.ExpectedFile{{Path: "huge"}, {Path: "link"}, {Path: "small.txt"}}}}
		got := oracle.ReadFiles(openRoot(dir), fx, 4)
		Expect(got).To(HaveKeyWithValue("huge", oracle.File{Kind: "file", ErrorCode: "LIMIT_EXCEEDED"}))
		Expect(got).To(HaveKeyWithValue("link", oracle.File{Kind: "symlink", ErrorCode: "LIMIT_EXCEEDED"}))
		Expect(got).To(HaveKeyWithValue("small.txt", oracle.File{Kind: "file", ErrorCode: "LIMIT_EXCEEDED"}))
		Expect(oracle.ReadFiles(openRoot(dir), fx, 0)).To(HaveKeyWithValue("small.txt", oracle.File{Kind: "file", Content: "12345"}))
	})

	It("reads nothing for a fixture without expectations", func() {
		Expect(oracle.ReadFiles(openRoot(GinkgoT().TempDir()), &fixture.Fixture{}, 0)).To(BeEmpty())
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

var _ = Describe("a file the snapshot did not hash", func() {
	const why = "not hashed: 4398046511104 bytes, over the snapshot cap of 67108864 bytes"

	// skip marks path unhashed in the final snapshot, as a snapshot over
	// its cap lists it.
	skip := func(r *run, path string) {
		for i, e := range r.obs.Final {
			if e.Path == path {
				r.obs.Final[i].Hash, r.obs.Final[i].Size, r.obs.Final[i].Skipped = "", 4<<40, why
			}
		}
	}

	It("fails unchanged with the reason, never passes it", func() {
		r := baseRun()
		skip(r, "a.txt")
		r.fx.Expected.AllowedChanges = append(r.fx.Expected.AllowedChanges, "a.txt")
		Expect(oracle.Check(r.fx, r.obs)).To(ContainElement(HaveField("Message",
			"File 'a.txt' cannot be checked byte for byte: the harness's snapshot "+why+" (raise --max-snapshot-file-size).")))
	})

	It("fails write evidence with the reason, not as a hash mismatch", func() {
		r := baseRun()
		skip(r, "src/b.txt")
		Expect(oracle.Check(r.fx, r.obs)).To(ConsistOf(HaveField("Message",
			"Mutation evidence hash for 'src/b.txt' cannot be checked: the harness's snapshot "+why+" (raise --max-snapshot-file-size).")))
	})
})
