package oracle_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/oracle"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

var _ = Describe("the checks that always run", func() {
	var r *run
	BeforeEach(func() {
		r = baseRun()
		r.fx.Expected = nil // nothing declared: only status and the always-on checks
	})
	check := func() []oracle.Failure { return oracle.Check(r.fx, r.obs) }
	lines := func(fs []oracle.Failure) []string {
		out := make([]string, len(fs))
		for i, f := range fs {
			out[i] = f.String()
		}
		return out
	}

	It("pass the base run", func() {
		Expect(check()).To(BeEmpty())
	})

	Describe("controls", func() {
		It("fail when a declared control did not fire", func() {
			r.obs.ControlsFired = []bool{false}
			Expect(check()).To(Equal(withFile(r.fx.File, []oracle.Failure{f("controls",
				"all 1 controls fired", "0 fired; not fired: 1",
				"Expected all 1 fixture controls to fire, received 0.")})))
			Expect(lines(check())).To(Equal([]string{
				"fixtures/base.json: controls: expected all 1 controls fired, got 0 fired; not fired: 1",
			}))
		})

		It("count a control the runner did not report as not fired", func() {
			r.obs.ControlsFired = nil
			Expect(check()).To(HaveExactElements(HaveField("Actual", "0 fired; not fired: 1")))
		})

		It("run even when the fixture declares nothing else", func() {
			r.fx.Controls = append(r.fx.Controls, r.fx.Controls[0], r.fx.Controls[0])
			r.obs.ControlsFired = oracle.ControlsFired(3, []int{2, 3})
			Expect(check()).To(HaveExactElements(And(
				HaveField("Expected", "all 3 controls fired"),
				HaveField("Actual", "1 fired; not fired: 2, 3"),
				HaveField("Message", "Expected all 3 fixture controls to fire, received 1."),
			)))
		})
	})

	Describe("checkpoint integrity", func() {
		It("fails naming each checkpoint that failed", func() {
			r.obs.Checkpoints = append(r.obs.Checkpoints,
				oracle.Checkpoint{Reason: "failure", IntegrityError: "content hash mismatch"},
				oracle.Checkpoint{Reason: "milestone"},
				oracle.Checkpoint{Reason: "pause", IntegrityError: "unknown field \"x\""})
			Expect(check()).To(Equal(withFile(r.fx.File, []oracle.Failure{f("checkpointIntegrity",
				"every persisted checkpoint valid",
				`checkpoint 2 (failure): content hash mismatch; checkpoint 4 (pause): unknown field "x"`,
				"At least one persisted checkpoint failed integrity validation.")})))
		})

		It("runs whatever the final status", func() {
			r.fx.Expected = &fixture.Expected{Status: fixture.StatusPaused}
			r.obs.Status = fixture.StatusPaused
			r.obs.Checkpoints[0].IntegrityError = "tampered"
			Expect(check()).To(HaveExactElements(HaveField("Assertion", "checkpointIntegrity")))
		})
	})

	Describe("write evidence", func() {
		It("fails for every change without evidence, directories included", func() {
			r.obs.Writes = nil
			Expect(check()).To(Equal(withFile(r.fx.File, []oracle.Failure{
				f("writeEvidence", "write evidence for 'src'", "none (missing -> directory)",
					"Completed run changed 'src' without trusted mutation evidence."),
				f("writeEvidence", "write evidence for 'src/b.txt'", "none (missing -> file "+sha("b\n")+")",
					"Completed run changed 'src/b.txt' without trusted mutation evidence."),
			})))
			Expect(lines(check())[0]).To(Equal(
				"fixtures/base.json: writeEvidence: expected write evidence for 'src', got none (missing -> directory)"))
		})

		It("accepts a directory covered by a write below it only", func() {
			r.obs.Writes = []port.Write{{Path: "src/b.txt", AfterHash: ptr(sha("b\n"))}} // kind-less form
			Expect(check()).To(BeEmpty())
			r.obs.Writes = []port.Write{{Path: "srcx/b.txt", AfterHash: ptr(sha("b\n"))}}
			Expect(check()).To(HaveExactElements(
				HaveField("Message", "Completed run changed 'src' without trusted mutation evidence."),
				HaveField("Message", "Completed run changed 'src/b.txt' without trusted mutation evidence."),
			))
		})

		It("accepts a removed directory covered by the removal of a file below it", func() {
			before := GinkgoT().TempDir()
			write(before, "a.txt", "a\n")
			write(before, "old/x.txt", "x\n")
			initial, err := snapshot.Take(before)
			Expect(err).NotTo(HaveOccurred())
			r.obs.Initial = initial
			r.obs.Writes = append(r.obs.Writes, port.Write{Path: "old/x.txt", BeforeKind: "file", BeforeHash: ptr(sha("x\n")), AfterKind: "missing"})
			Expect(check()).To(BeEmpty())
			r.obs.Writes = r.obs.Writes[:1]
			Expect(check()).To(HaveExactElements(
				HaveField("Message", "Completed run changed 'old' without trusted mutation evidence."),
				HaveField("Message", "Completed run changed 'old/x.txt' without trusted mutation evidence."),
			))
		})

		It("uses the latest write for a path", func() {
			r.obs.Writes = []port.Write{
				r.obs.Writes[0],
				{Path: "src/b.txt", BeforeKind: "file", BeforeHash: ptr(sha("b\n")), AfterKind: "missing"},
			}
			Expect(check()).To(Equal(withFile(r.fx.File, []oracle.Failure{f("writeEvidence",
				"'src/b.txt' ending as missing (write evidence)", "file",
				"Mutation evidence for 'src/b.txt' ended as missing, workspace ended as file.")})))
		})

		It("reads a kind-less write without a hash as a deletion", func() {
			r.obs.Writes[0] = port.Write{Path: "src/b.txt", BeforeHash: ptr(sha("x"))}
			Expect(check()).To(HaveExactElements(HaveField("Expected", "'src/b.txt' ending as missing (write evidence)")))
		})

		It("fails a hash that does not match the final bytes", func() {
			r.obs.Writes[0].AfterHash = ptr(sha("c\n"))
			Expect(check()).To(Equal(withFile(r.fx.File, []oracle.Failure{f("writeEvidence",
				"'src/b.txt' with hash "+sha("c\n")+" (write evidence)", "file "+sha("b\n"),
				"Mutation evidence hash for 'src/b.txt' does not match final workspace bytes.")})))
		})

		It("compares hashes without their prefix and case", func() {
			h := sha("b\n")
			r.obs.Writes[0].AfterHash = ptr(strings.TrimPrefix(h, "sha256:"))
			Expect(check()).To(BeEmpty())
			upper := "sha256:" + strings.ToUpper(h[len("sha256:"):])
			r.obs.Writes[0].AfterHash = &upper
			Expect(check()).To(BeEmpty())
		})

		It("accepts a deletion backed by evidence", func() {
			Expect(os.Remove(filepath.Join(r.dir, "a.txt"))).To(Succeed())
			r.retake()
			r.obs.Writes = append(r.obs.Writes, port.Write{Path: "a.txt", BeforeKind: "file",
				BeforeHash: ptr(sha("a\n")), AfterKind: "missing"})
			Expect(check()).To(BeEmpty())
		})

		It("compares the kind but not the host-defined hash of a symlink", func() {
			Expect(os.Symlink("a.txt", filepath.Join(r.dir, "link"))).To(Succeed())
			r.retake()
			r.obs.Writes = append(r.obs.Writes, port.Write{Path: "link", BeforeKind: "missing",
				AfterKind: "symlink", AfterHash: ptr("host-defined")})
			Expect(check()).To(BeEmpty())
			r.obs.Writes[len(r.obs.Writes)-1].AfterKind = "file"
			Expect(check()).To(HaveExactElements(HaveField("Message",
				"Mutation evidence for 'link' ended as file, workspace ended as symlink.")))
		})

		It("is not checked when the run did not complete", func() {
			r.fx.Expected = &fixture.Expected{Status: fixture.StatusFailed}
			r.obs.Status = fixture.StatusFailed
			r.obs.Writes = nil
			Expect(check()).To(BeEmpty())
		})

		It("demands no evidence for derived trees, and still checks what evidence a host gives", func() {
			for _, p := range []string{"src/node_modules/.cache/last-run", "dist/out.js", "build/x.o",
				"coverage/lcov.info", ".cache/k", "run.log", "src/tsconfig.tsbuildinfo"} {
				write(r.dir, p, "changed\n")
			}
			r.retake()
			Expect(r.obs.ChangedPaths()).To(ContainElements("src/node_modules/.cache/last-run", "dist/out.js", "coverage/lcov.info"))
			Expect(check()).NotTo(ContainElement(HaveField("Assertion", "writeEvidence")))

			r.obs.Writes = append(r.obs.Writes, port.Write{Path: "dist/out.js", BeforeKind: "missing", AfterKind: "file", AfterHash: ptr(sha("other\n"))})
			Expect(check()).To(ContainElement(And(HaveField("Assertion", "writeEvidence"),
				HaveField("Message", "Mutation evidence hash for 'dist/out.js' does not match final workspace bytes."))))

			write(r.dir, "src/main.js", "durable\n")
			r.retake()
			Expect(check()).To(ContainElement(HaveField("Message", "Completed run changed 'src/main.js' without trusted mutation evidence.")))
		})

		It("knows the derived paths of the contract", func() {
			for _, p := range []string{"node_modules", "a/node_modules/x/y.js", "dist/a.js", "build", "coverage/lcov.info",
				".cache/x", "pkg/__pycache__/m.pyc", "app.log", "tsconfig.tsbuildinfo", "a/.DS_Store"} {
				Expect(oracle.IsDerivedPath(p)).To(BeTrue(), p)
			}
			for _, p := range []string{"src/a.js", "distribution/a.js", "builder", "a/log.txt", "README.md"} {
				Expect(oracle.IsDerivedPath(p)).To(BeFalse(), p)
			}
		})

		It("leaves out lock files, as the original snapshot does", func() {
			write(r.dir, "src/b.txt.galaxy-code.lock", "")
			r.retake()
			Expect(r.obs.ChangedPaths()).To(Equal([]string{"src", "src/b.txt"}))
			Expect(check()).To(BeEmpty())
		})
	})
})
