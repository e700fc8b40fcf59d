package workspace_test

import (
	"fmt"
	"os"
	"runtime"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("snapshot and diff", func() {
	var f *fixture
	opts := workspace.DefaultSnapshotOptions()
	BeforeEach(func() {
		f = newFixture()
		f.write("keep.txt", "keep\n")
		f.write("edit.txt", "before\n")
		f.write("gone.txt", "bye\n")
		f.write("dir/inner.txt", "inner\n")
		f.write(".git/HEAD", "ref\n")
	})

	snap := func() workspace.Snapshot {
		GinkgoHelper()
		s, err := f.root.Snapshot(ctx, opts)
		Expect(err).NotTo(HaveOccurred())
		return s
	}

	It("is deterministic and ignores .git and lock files", func() {
		a, b := snap(), snap()
		Expect(a).To(Equal(b))
		for _, e := range a.Entries {
			Expect(e.Path).NotTo(HavePrefix(".git"))
		}
		f.write(".git/HEAD", "other\n")
		f.write("x"+workspace.LockSuffix, "")
		Expect(snap().StateVersion).To(Equal(a.StateVersion))
	})

	It("turns create, edit, delete, directory and symlink transitions into typed writes", func() {
		before := snap()
		f.write("new.txt", "fresh\n")
		f.write("edit.txt", "after\n")
		Expect(os.Remove(f.abs("gone.txt"))).To(Succeed())
		Expect(os.Mkdir(f.abs("newdir"), 0o755)).To(Succeed())
		Expect(os.RemoveAll(f.abs("dir"))).To(Succeed())
		withLink := runtime.GOOS != "windows"
		if withLink {
			Expect(os.Symlink("keep.txt", f.abs("link"))).To(Succeed())
		}
		after := snap()
		Expect(after.StateVersion).NotTo(Equal(before.StateVersion))
		d, err := workspace.DiffSnapshots(before, after)
		Expect(err).NotTo(HaveOccurred())
		want := []port.Write{
			{Path: "dir", BeforeKind: "directory", AfterKind: "missing"},
			{Path: "dir/inner.txt", BeforeKind: "file", BeforeHash: hashPtr("inner\n"), AfterKind: "missing"},
			{Path: "edit.txt", BeforeKind: "file", BeforeHash: hashPtr("before\n"), AfterKind: "file", AfterHash: hashPtr("after\n")},
			{Path: "gone.txt", BeforeKind: "file", BeforeHash: hashPtr("bye\n"), AfterKind: "missing"},
		}
		if withLink {
			h := workspace.HashPrefix + sha("symlink\x00keep.txt")
			want = append(want, port.Write{Path: "link", BeforeKind: "missing", AfterKind: "symlink", AfterHash: &h})
		}
		want = append(want,
			port.Write{Path: "new.txt", BeforeKind: "missing", AfterKind: "file", AfterHash: hashPtr("fresh\n")},
			port.Write{Path: "newdir", BeforeKind: "missing", AfterKind: "directory"},
		)
		Expect(d.Writes).To(Equal(want))
		Expect(d.DerivedMutations()).To(BeNil())
		Expect(d.StateVersion).To(Equal(after.StateVersion))
	})

	It("sees a file replaced by a directory and a retargeted symlink", func() {
		if runtime.GOOS == "windows" {
			Skip("symlinks need privileges on Windows")
		}
		Expect(os.Symlink("keep.txt", f.abs("link"))).To(Succeed())
		before := snap()
		Expect(os.Remove(f.abs("edit.txt"))).To(Succeed())
		Expect(os.Mkdir(f.abs("edit.txt"), 0o755)).To(Succeed())
		Expect(os.Remove(f.abs("link"))).To(Succeed())
		Expect(os.Symlink("gone.txt", f.abs("link"))).To(Succeed())
		d, err := workspace.DiffSnapshots(before, snap())
		Expect(err).NotTo(HaveOccurred())
		Expect(d.Writes).To(HaveLen(2))
		Expect(d.Writes[0]).To(Equal(port.Write{Path: "edit.txt", BeforeKind: "file", BeforeHash: hashPtr("before\n"), AfterKind: "directory"}))
		Expect(d.Writes[1].Path).To(Equal("link"))
		Expect(*d.Writes[1].AfterHash).To(Equal(workspace.HashPrefix + sha("symlink\x00gone.txt")))
	})

	It("agrees with the evidence WriteText and ApplyPatch return", func() {
		before := snap()
		w, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: "a/b/c.txt", Content: "c\n", Precondition: mustNotExist()})
		Expect(err).NotTo(HaveOccurred())
		p, err := f.root.ApplyPatch(ctx, workspace.PatchRequest{Path: "edit.txt", OldText: "before", NewText: "patched"})
		Expect(err).NotTo(HaveOccurred())
		d, err := workspace.DiffSnapshots(before, snap())
		Expect(err).NotTo(HaveOccurred())
		Expect(d.Writes).To(ConsistOf(append(w.Writes, p.Writes...)))
	})

	It("reports dependency and generated trees only as bounded derived mutations", func() {
		before := snap()
		for i := range 40 {
			f.write(fmt.Sprintf("node_modules/pkg%02d/index.js", i), "x")
		}
		f.write("service.log", "log line\n")
		f.write("dist/out.js", "built")
		f.write("build/app.o", "built")
		f.write("coverage/lcov.info", "covered")
		f.write("durable.txt", "kept")
		d, err := workspace.DiffSnapshots(before, snap())
		Expect(err).NotTo(HaveOccurred())
		// Build outputs are derived too (CONTRACTS.md, `writes`); only the
		// durable file is a write.
		Expect(d.Writes).To(Equal([]port.Write{{Path: "durable.txt", BeforeKind: "missing", AfterKind: "file", AfterHash: hashPtr("kept")}}))
		dm := d.DerivedMutations()
		Expect(dm).NotTo(BeNil())
		Expect(dm.Count).To(Equal(88))
		Expect(dm.Paths).To(HaveLen(workspace.MaxReportedDerivedPaths))
		Expect(dm.Truncated).To(BeTrue())
	})

	It("rejects multi-segment derived directory names and diffs with mixed options", func() {
		_, err := f.root.Snapshot(ctx, workspace.SnapshotOptions{DerivedDirectories: []string{"a/b"}})
		Expect(err).To(HaveOccurred())
		f.write("node_modules/x.js", "x")
		a, err := f.root.Snapshot(ctx, workspace.SnapshotOptions{})
		Expect(err).NotTo(HaveOccurred())
		f.write("node_modules/x.js", "y")
		_, err = workspace.DiffSnapshots(a, snap())
		Expect(err).To(haveCode(hosterr.InvalidInput))
	})

	It("bounds hashed bytes", func() {
		_, err := f.root.Snapshot(ctx, workspace.SnapshotOptions{MaxHashedBytes: 4})
		Expect(err).To(haveCode(hosterr.LimitExceeded))
		_, err = f.root.Snapshot(ctx, workspace.SnapshotOptions{MaxEntries: 2})
		Expect(err).To(haveCode(hosterr.LimitExceeded))
	})
})

var _ = Describe("fingerprint", func() {
	var f *fixture
	BeforeEach(func() {
		f = newFixture()
		f.write("src/a.ts", "export const a = 1;\n")
		f.write("README.md", "# r\n")
	})

	capture := func(active ...port.ActiveFile) port.WorkspaceState {
		GinkgoHelper()
		s, err := f.root.CaptureState(ctx, active, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.StateFingerprint).To(HavePrefix(workspace.HashPrefix))
		return s
	}
	verify := func(s port.WorkspaceState) bool {
		GinkgoHelper()
		v, err := f.root.VerifyState(ctx, s)
		Expect(err).NotTo(HaveOccurred())
		return v.Matches
	}

	It("matches an unchanged workspace", func() {
		s := capture()
		Expect(verify(s)).To(BeTrue())
		Expect(capture().StateFingerprint).To(Equal(s.StateFingerprint))
	})

	DescribeTable("detects relevant changes",
		func(change func(f *fixture)) {
			s := capture()
			change(f)
			Expect(verify(s)).To(BeFalse())
		},
		Entry("content", func(f *fixture) { f.write("src/a.ts", "export const a = 2;\n") }),
		Entry("new file", func(f *fixture) { f.write("src/b.ts", "") }),
		Entry("deleted file", func(f *fixture) { Expect(os.Remove(f.abs("README.md"))).To(Succeed()) }),
		Entry("new directory", func(f *fixture) { Expect(os.Mkdir(f.abs("empty"), 0o755)).To(Succeed()) }),
		Entry("mode", func(f *fixture) {
			if runtime.GOOS == "windows" {
				Skip("no execute bit on Windows")
			}
			Expect(os.Chmod(f.abs("src/a.ts"), 0o755)).To(Succeed())
		}),
	)

	It("ignores generated state, .git and lock files", func() {
		s := capture()
		f.write("node_modules/x/index.js", "x")
		f.write("dist/out.js", "x")
		f.write("run.log", "x")
		f.write(".git/HEAD", "x")
		f.write("src/a.ts"+workspace.LockSuffix, "")
		Expect(verify(s)).To(BeTrue())
	})

	It("checks active files against their declared kind and hash", func() {
		h := workspace.HashPrefix + sha("export const a = 1;\n")
		s := capture(
			port.ActiveFile{Path: "src/a.ts", Kind: "file", ContentHash: &h},
			port.ActiveFile{Path: "gone.txt", Kind: "missing"},
			port.ActiveFile{Path: "src", Kind: "directory"},
		)
		Expect(verify(s)).To(BeTrue())

		f.write("src/a.ts", "changed\n")
		_, err := f.root.VerifyState(ctx, s)
		Expect(err).To(haveCode(hosterr.PreconditionFailed))

		bad := "sha256:" + sha("something else")
		_, err = f.root.CaptureState(ctx, []port.ActiveFile{{Path: "README.md", ContentHash: &bad}}, nil)
		Expect(err).To(haveCode(hosterr.PreconditionFailed))
		_, err = f.root.CaptureState(ctx, []port.ActiveFile{{Path: "README.md", Kind: "missing"}}, nil)
		Expect(err).To(haveCode(hosterr.PreconditionFailed))
		_, err = f.root.CaptureState(ctx, []port.ActiveFile{{Path: "src", ContentHash: &bad}}, nil)
		Expect(err).To(haveCode(hosterr.InvalidInput))
	})

	It("binds active files inside ignored trees by metadata", func() {
		f.write("node_modules/dep/index.js", "v1")
		s := capture(port.ActiveFile{Path: "node_modules/dep", Kind: "directory"})
		Expect(verify(s)).To(BeTrue())
		f.write("node_modules/dep/extra.js", "v2")
		Expect(verify(s)).To(BeFalse())
	})

	It("records churning logs by path only", func() {
		f.write("app.log", "1")
		s := capture(port.ActiveFile{Path: "app.log", Kind: "file"})
		f.write("app.log", "12")
		Expect(verify(s)).To(BeTrue())
	})

	It("refuses active paths that escape", func() {
		f.symlink(f.outside, "escape")
		_, err := f.root.CaptureState(ctx, []port.ActiveFile{{Path: "escape/secret.txt"}}, nil)
		Expect(err).To(haveCode(hosterr.PermissionDenied))
		_, err = f.root.CaptureState(ctx, []port.ActiveFile{{Path: "escape"}}, nil)
		Expect(err).To(haveCode(hosterr.PermissionDenied))
	})
})
