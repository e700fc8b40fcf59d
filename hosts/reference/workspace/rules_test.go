package workspace_test

import (
	"fmt"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

// Specs that pin single rules of the reference workspace: limits at their
// exact value, and orders a fingerprint must not depend on.
var _ = Describe("the reference workspace, rule by rule", func() {
	var f *fixture
	BeforeEach(func() { f = newFixture() })

	It("fingerprints the entries after a directory too", func() {
		f.write("a/x.txt", "x\n")
		f.write("z.txt", "z\n")
		Expect(f.matchesAfterWrite(nil, "z.txt", "changed\n")).To(BeFalse())
	})

	It("stops a fingerprint on a cancelled context", func() {
		f.write("a.txt", "a\n")
		cctx, cancel := contextWithCancel()
		cancel()
		_, err := f.root.Fingerprint(cctx, nil)
		Expect(err).To(HaveOccurred())
	})

	It("reports up to 64 manifests without a warning, and warns past them", func() {
		for i := range workspace.DetectReportedManifests {
			f.write(fmt.Sprintf("m%02d/go.mod", i), "module x\n")
		}
		f.write("Makefile", "all:\n") // a root file without an extension names no language
		proj, err := f.root.DetectProject(ctx, ".")
		Expect(err).NotTo(HaveOccurred())
		Expect(proj.Manifests).To(HaveLen(64))
		Expect(proj.Languages).To(BeEmpty())
		Expect(proj.Warnings).NotTo(ContainElement(HavePrefix("Detected ")))
		f.write("m64/go.mod", "module x\n")
		proj, err = f.root.DetectProject(ctx, ".")
		Expect(err).NotTo(HaveOccurred())
		Expect(proj.Warnings).To(ContainElement("Detected 65 manifests; only the first 64 were reported."))
	})

	It("overwrites a file of exactly the read limit, and refuses one byte more", func() {
		big := f.abs("big.txt")
		Expect(os.WriteFile(big, nil, 0o644)).To(Succeed())
		Expect(os.Truncate(big, workspace.MaxReadFileBytes)).To(Succeed()) // NUL bytes are valid UTF-8
		zeros := string(make([]byte, workspace.MaxReadFileBytes))
		_, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: "big.txt", Content: "small\n", Precondition: matches(zeros)})
		Expect(err).NotTo(HaveOccurred())
		Expect(os.Truncate(big, workspace.MaxReadFileBytes+1)).To(Succeed())
		_, err = f.root.WriteText(ctx, workspace.WriteRequest{Path: "big.txt", Content: "small\n", Precondition: matches(zeros + "\x00")})
		Expect(err).To(haveCode(hosterr.LimitExceeded))
	})

	It("counts directories, and only directories, as files under the ManifestDirectories fault", func() {
		Expect(os.MkdirAll(f.abs("x/Cargo.toml"), 0o755)).To(Succeed())
		f.write("y/real.txt", "")
		Expect(os.Symlink("real.txt", f.abs("y/go.mod"))).To(Succeed())
		faulty, err := workspace.OpenWithFaults(f.dir, workspace.Faults{ManifestDirectories: true})
		Expect(err).NotTo(HaveOccurred())
		proj, err := faulty.DetectProject(ctx, ".")
		Expect(err).NotTo(HaveOccurred())
		Expect(proj.Manifests).To(Equal([]string{"x/Cargo.toml"}), "the symlink named like a manifest is still skipped")
		proj, err = f.root.DetectProject(ctx, ".")
		Expect(err).NotTo(HaveOccurred())
		Expect(proj.Manifests).To(BeEmpty())
	})

	It("does not mark exactly 32 derived paths as truncated", func() {
		snap := func() workspace.Snapshot {
			GinkgoHelper()
			s, err := f.root.Snapshot(ctx, workspace.DefaultSnapshotOptions())
			Expect(err).NotTo(HaveOccurred())
			return s
		}
		before := snap()
		for i := range 15 { // node_modules, 15 directories and 15 files, and the log: 32 paths
			f.write(fmt.Sprintf("node_modules/pkg%02d/index.js", i), "x")
		}
		f.write("service.log", "log line\n")
		d, err := workspace.DiffSnapshots(before, snap())
		Expect(err).NotTo(HaveOccurred())
		dm := d.DerivedMutations()
		Expect(dm).NotTo(BeNil())
		Expect(dm.Count).To(Equal(workspace.MaxReportedDerivedPaths))
		Expect(dm.Truncated).To(BeFalse())
	})

	It("binds a missing active file declared without kind or hash, and sees it appear", func() {
		Expect(f.matchesAfterWrite([]port.ActiveFile{{Path: "later.txt"}}, "later.txt", "now\n")).To(BeFalse())
	})

	It("watches the entries of an active .git directory, which the main walk skips", func() {
		f.write(".git/HEAD", "ref: a\n")
		Expect(f.matchesAfterWrite([]port.ActiveFile{{Path: ".git", Kind: workspace.KindDirectory}}, ".git/HEAD", "ref: b, longer\n")).To(BeFalse())
	})

	It("refuses a write below a file as a parent that is not a directory", func() {
		f.write("f.txt", "f\n")
		_, err := f.root.WriteText(ctx, workspace.WriteRequest{Path: "f.txt/child.txt", Content: "c\n", Precondition: mustNotExist()})
		Expect(err).To(haveCode(hosterr.InvalidInput))
		Expect(err).To(MatchError(ContainSubstring("parent is not a directory")))
	})

	It("replaces the inode under ReplaceInodeOnFailure only for undecodable text, not for a file over the limit", func() {
		big := f.abs("big.txt")
		Expect(os.WriteFile(big, nil, 0o644)).To(Succeed())
		Expect(os.Truncate(big, workspace.MaxReadFileBytes+1)).To(Succeed())
		before, err := os.Stat(big)
		Expect(err).NotTo(HaveOccurred())
		faulty, err := workspace.OpenWithFaults(f.dir, workspace.Faults{ReplaceInodeOnFailure: true})
		Expect(err).NotTo(HaveOccurred())
		_, err = faulty.WriteText(ctx, workspace.WriteRequest{Path: "big.txt", Content: "small\n", Precondition: matches("x")})
		Expect(err).To(haveCode(hosterr.LimitExceeded))
		after, err := os.Stat(big)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.SameFile(before, after)).To(BeTrue())
	})
})
