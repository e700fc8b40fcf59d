package workspace_test

import (
	"os"
	"runtime"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

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
