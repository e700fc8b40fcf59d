package lab_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

// mustLoad loads the fixtures of dir while the spec tree is built.
func mustLoad(dir string) []*fixture.Fixture {
	fxs, err := fixture.Load(dir)
	if err != nil {
		panic(err)
	}
	return fxs
}

var _ = Describe("the original fixtures", Label("seeds"), func() {
	for _, fx := range mustLoad(seedDir) {
		It("passes "+filepath.Base(fx.File)+" against the reference host", func() {
			if testingShort() {
				Skip("the seed fixtures run without -short")
			}
			rep := runOn(hostArgv("reference"), fx)
			Expect(rep.Passed).To(BeTrue(), "failures:\n%s", strings.Join(failuresOf(rep), "\n"))
			Expect(rep.Observed).NotTo(BeNil())
			Expect(rep.RunID).To(Equal(fx.RunID()))
		})
	}

	It("passes the progressive campaign on one shared workspace", func() {
		c, err := fixture.LoadCampaign(campaignDir)
		Expect(err).NotTo(HaveOccurred())
		rep, err := lab.RunCampaign(context.Background(), c, lab.Options{Argv: hostArgv("reference")}, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Failures).To(BeEmpty())
		Expect(rep.Passed).To(BeTrue())
		Expect(rep.CompletedStages).To(Equal(5))
		var statuses []string
		for _, st := range rep.Stages {
			statuses = append(statuses, st.Report.Status)
		}
		Expect(statuses).To(Equal([]string{"completed", "completed", "completed", "failed", "completed"}))
		Expect(rep.Stages[3].Negative).To(BeTrue())
	})

	It("passes inspect-existing-project with the doubles host, which it labels", func() {
		rep := runOn(hostArgv("doubles"), loadOne(filepath.Join(seedDir, "scenarios/inspect-existing-project.json")))
		Expect(rep.Passed).To(BeTrue(), "failures:\n%s", strings.Join(failuresOf(rep), "\n"))
		Expect(rep.Doubles).To(ContainElements("user.ask", "research.fetch"))
	})

	It("treats fixtures as evidence: a renamed copy elsewhere passes alike", func() {
		dir := GinkgoT().TempDir()
		p := copyFixture(filepath.Join(seedDir, "write-and-validate.json"), dir, "other.json", func(d map[string]any) {
			d["name"] = "an unrelated name"
			d["task"] = "Create hello.txt, run the project test, review the Git diff and report."
		})
		rep := runFast(hostArgv("reference"), loadOne(p))
		Expect(rep.Passed).To(BeTrue(), "failures:\n%s", strings.Join(failuresOf(rep), "\n"))
	})
})

var _ = Describe("a campaign", func() {
	It("stops after a first stage whose oracle fails", func() {
		dir := GinkgoT().TempDir()
		copyFixture(filepath.Join(campaignDir, "02-inspect-existing-project.json"), dir, "01-wrong.json", func(d map[string]any) {
			d["initialFiles"] = []any{map[string]any{"path": "package.json", "content": "{}\n"}}
			d["expected"] = map[string]any{"status": "paused"}
		})
		copyFixture(filepath.Join(campaignDir, "04-empty-terminal-response.json"), dir, "02-next.json", func(map[string]any) {})
		c, err := fixture.LoadCampaign(dir)
		Expect(err).NotTo(HaveOccurred())
		rep, err := lab.RunCampaign(context.Background(), c, lab.Options{Argv: hostArgv("reference"), ForbidContainment: true}, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Passed).To(BeFalse())
		Expect(rep.CompletedStages).To(Equal(1))
		Expect(rep.PlannedStages).To(HaveLen(2))
		Expect(rep.Failures).NotTo(BeEmpty())
		Expect(rep.Failures[0]).To(HavePrefix("stage 1 (campaign 02 inspect existing project): Expected status paused"))
	})
})

var _ = Describe("fixture features", func() {
	for _, fx := range mustLoad(featureDir) {
		It("runs "+filepath.Base(fx.File)+" with the doubles host", func() {
			rep := runFast(hostArgv("doubles"), fx)
			Expect(rep.Passed).To(BeTrue(), "failures:\n%s", strings.Join(failuresOf(rep), "\n"))
		})
	}

	It("fails a full_contract fixture as not applicable on a host without the optional tools", func() {
		rep := runFast(hostArgv("reference"), loadOne(filepath.Join(featureDir, "full-contract.json")))
		Expect(rep.Passed).To(BeFalse())
		Expect(rep.NotApplicable).To(ContainSubstring("user.ask"))
		Expect(rep.Failures).To(ConsistOf(HaveField("Assertion", "runtime.toolProfile")))
	})

	It("answers approvals, fires controls and resumes on the reference host", func() {
		for _, name := range []string{"approval-denied.json", "controls-cancel.json", "controls-pause-resume.json", "tamper-checkpoint.json", "mutate-before-resume.json"} {
			rep := runFast(hostArgv("reference"), loadOne(filepath.Join(featureDir, name)))
			Expect(rep.Passed).To(BeTrue(), "%s failures:\n%s", name, strings.Join(failuresOf(rep), "\n"))
		}
	})

	It("fails a run that changes the directory beside the workspace", func() {
		dir := GinkgoT().TempDir()
		p := copyFixture(filepath.Join(featureDir, "outside-symlink.json"), dir, "dotdot.json", func(d map[string]any) {
			call := d["rounds"].([]any)[1].(map[string]any)["toolCalls"].([]any)[0].(map[string]any)
			call["arguments"].(map[string]any)["path"] = "../outside/new.txt"
		})
		Expect(runFast(hostArgv("reference"), loadOne(p)).Passed).To(BeTrue())
		rep := runFast(mutantArgv("dotdot-escape"), loadOne(p))
		Expect(rep.Failures).To(ContainElement(And(HaveField("Assertion", "outside"), HaveField("Actual", "new.txt (missing → file)"))))
	})

	It("uses and labels the memory doubles when the host offers no store or trace", func() {
		rep := runFast(storelessArgv(), loadOne(filepath.Join(featureDir, "controls-pause-resume.json")))
		Expect(rep.Passed).To(BeTrue(), "failures:\n%s", strings.Join(failuresOf(rep), "\n"))
		Expect(rep.Doubles).To(ConsistOf("run store", "trace"))
		Expect(rep.Observed.CheckpointReasons()).To(Equal([]string{"pause"}))
		Expect(rep.Observed.TraceKinds).NotTo(BeEmpty())
	})

	It("makes a scenario whose fault aims at a capability the host declares absent not applicable, with the reason", func() {
		for _, file := range []string{
			"../../fixtures/matrix/12-trace-report-persistence/final-report-failure.json",
			"../../fixtures/matrix/40-persistence-ack-failure/checkpoint-drop-ack.json",
			"../../fixtures/matrix/12-trace-report-persistence/trace-flush-failure.json",
		} {
			rep := runFast(storelessArgv(), loadOne(file))
			Expect(rep.Passed).To(BeFalse(), file)
			Expect(rep.Status).To(Equal("not_applicable"), file)
			Expect(rep.NotApplicable).To(MatchRegexp(`fault into (store/put|trace/flush), and the host's initialize declares capabilities\.(store|trace) false`), file)
			Expect(rep.Observed).To(BeNil(), "%s: a scenario that cannot apply does not run", file)
		}
	})

	It("runs a scenario whose faults aim at capabilities the host declares", func() {
		rep := runFast(hostArgv("reference"), loadOne("../../fixtures/matrix/12-trace-report-persistence/final-report-failure.json"))
		Expect(rep.NotApplicable).To(BeEmpty())
		Expect(rep.Passed).To(BeTrue(), "failures:\n%s", strings.Join(failuresOf(rep), "\n"))
	})

	It("never reports as the host's incident a protocol break that conform's own fault made", func() {
		rep := runFast(hostArgv("reference"), loadOne("../../fixtures/matrix/34-malformed-after-write/garbage-after-write.json"))
		Expect(rep.Passed).To(BeTrue(), "failures:\n%s", strings.Join(failuresOf(rep), "\n"))
		Expect(rep.Faults).To(ContainElement(HaveField("Detail", "replaced the host's answer with its first half, which is not JSON")))
		Expect(rep.Incidents).To(BeEmpty(), "the reference host broke nothing: the proxy sent the line that is not JSON")
	})

	It("replaces the goal with a task override but keeps the run ID", func() {
		fx := loadOne(filepath.Join(featureDir, "completion-rejected.json"))
		rep, err := lab.Run(context.Background(), fx, lab.Options{Argv: hostArgv("reference"), Task: "List the workspace, please.", ForbidContainment: true}, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.RunID).To(Equal(fx.RunID()))
		Expect(rep.Passed).To(BeTrue(), "failures:\n%s", strings.Join(failuresOf(rep), "\n"))
	})

	It("refuses a fixture whose run request the core rejects as an invocation error", func() {
		dir := GinkgoT().TempDir()
		p := copyFixture(filepath.Join(featureDir, "completion-rejected.json"), dir, "zero.json", func(d map[string]any) {
			d["runtime"] = map[string]any{"budget": map[string]any{"maxCompletionRejections": 0}}
		})
		_, err := lab.Run(context.Background(), loadOne(p), lab.Options{Argv: hostArgv("reference"), ForbidContainment: true}, false)
		var ie *lab.InvocationError
		Expect(errors.As(err, &ie)).To(BeTrue(), "error: %v", err)
		Expect(ie.Error()).To(ContainSubstring("zero.json"))
	})

	It("keeps the workspace when asked and names it", func() {
		fx := loadOne(filepath.Join(featureDir, "controls-cancel.json"))
		rep, err := lab.Run(context.Background(), fx, lab.Options{Argv: hostArgv("reference"), ForbidContainment: true}, true)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = removeAll(filepath.Dir(rep.Workspace)) })
		Expect(filepath.Join(rep.Workspace, "notes.txt")).To(BeARegularFile())
	})
})

// Every assertion type of the oracle, checked against the observation of a
// real run, passes as the fixture declares it and fails when the
// expectation is deliberately wrong.
var _ = Describe("the oracle over a real run", Ordered, func() {
	var fx *fixture.Fixture
	var obs *oracle.Observed

	BeforeAll(func() {
		fx = loadOne(filepath.Join(seedDir, "write-and-validate.json"))
		rep := runFast(hostArgv("reference"), fx)
		Expect(rep.Passed).To(BeTrue(), "failures:\n%s", strings.Join(failuresOf(rep), "\n"))
		obs = rep.Observed
	})

	// wrong returns a copy of fx whose expected block edit has made wrong.
	wrong := func(edit func(e *fixture.Expected, f *fixture.Fixture)) *fixture.Fixture {
		cp := *fx
		e := *fx.Expected
		e.ToolResults = slices.Clone(e.ToolResults)
		e.Files = slices.Clone(e.Files)
		cp.Expected = &e
		edit(&e, &cp)
		return &cp
	}
	s := func(v string) *string { return &v }
	n := func(v int) *int { return &v }
	f := func(v bool) *bool { return &v }

	DescribeTable("fails a wrong expectation",
		func(assertion string, edit func(e *fixture.Expected, f *fixture.Fixture)) {
			Expect(oracle.Check(fx, obs)).To(BeEmpty())
			failures := oracle.Check(wrong(edit), obs)
			Expect(failures).NotTo(BeEmpty())
			Expect(failures[0].Assertion).To(HavePrefix(assertion))
			Expect(failures[0].File).To(Equal(fx.File))
		},
		Entry("status", "expected.status", func(e *fixture.Expected, _ *fixture.Fixture) { e.Status = "failed" }),
		Entry("errorCode", "expected.errorCode", func(e *fixture.Expected, _ *fixture.Fixture) { e.ErrorCode = fixture.Str("NO_PROGRESS") }),
		Entry("executionStatuses", "expected.executionStatuses", func(e *fixture.Expected, _ *fixture.Fixture) { e.ExecutionStatuses = []string{"failed", "completed"} }),
		Entry("toolSequence", "expected.toolSequence", func(e *fixture.Expected, _ *fixture.Fixture) { e.ToolSequence = e.ToolSequence[1:] }),
		Entry("toolResults count", "expected.toolResults", func(e *fixture.Expected, _ *fixture.Fixture) { e.ToolResults = e.ToolResults[1:] }),
		Entry("toolResults canonicalToolId", "expected.toolResults[0].canonicalToolId", func(e *fixture.Expected, _ *fixture.Fixture) { e.ToolResults[0].CanonicalToolID = s("workspace.read") }),
		Entry("toolResults toolName", "expected.toolResults[0].toolName", func(e *fixture.Expected, _ *fixture.Fixture) { e.ToolResults[0].ToolName = s("read_file") }),
		Entry("toolResults ok", "expected.toolResults[0].ok", func(e *fixture.Expected, _ *fixture.Fixture) { e.ToolResults[0].OK = f(false) }),
		Entry("toolResults errorCode", "expected.toolResults[0].errorCode", func(e *fixture.Expected, _ *fixture.Fixture) { e.ToolResults[0].ErrorCode = fixture.Str("NOT_FOUND") }),
		Entry("toolResults summaryIncludes", "expected.toolResults[0].summaryIncludes", func(e *fixture.Expected, _ *fixture.Fixture) { e.ToolResults[0].SummaryIncludes = s("no such summary") }),
		Entry("toolResults contentIncludes", "expected.toolResults[4].contentIncludes", func(e *fixture.Expected, _ *fixture.Fixture) { e.ToolResults[4].ContentIncludes = []string{"+goodbye"} }),
		Entry("files content", "expected.files[0].content", func(e *fixture.Expected, _ *fixture.Fixture) {
			e.Files = []fixture.ExpectedFile{{Path: "hello.txt", Content: s("bye\n")}}
		}),
		Entry("files contentIncludes", "expected.files[0].contentIncludes", func(e *fixture.Expected, _ *fixture.Fixture) {
			e.Files = []fixture.ExpectedFile{{Path: "hello.txt", ContentIncludes: []string{"bye"}}}
		}),
		Entry("files absent", "expected.files[0].absent", func(e *fixture.Expected, _ *fixture.Fixture) {
			e.Files = []fixture.ExpectedFile{{Path: "hello.txt", Absent: true}}
		}),
		Entry("files unchanged", "expected.files[0].unchanged", func(e *fixture.Expected, _ *fixture.Fixture) {
			e.Files = []fixture.ExpectedFile{{Path: "hello.txt", Unchanged: true}}
		}),
		Entry("files unreadable", "expected.files[0]", func(e *fixture.Expected, _ *fixture.Fixture) {
			e.Files = []fixture.ExpectedFile{{Path: "missing.txt", Content: s("")}}
		}),
		Entry("allowedChanges", "expected.allowedChanges", func(e *fixture.Expected, _ *fixture.Fixture) { e.AllowedChanges = []string{} }),
		Entry("finalResponseIncludes", "expected.finalResponseIncludes[0]", func(e *fixture.Expected, _ *fixture.Fixture) { e.FinalResponseIncludes = []string{"no such words"} }),
		Entry("finalResponseExcludes", "expected.finalResponseExcludes[0]", func(e *fixture.Expected, _ *fixture.Fixture) {
			e.FinalResponseExcludes = []string{"project test passed"}
		}),
		Entry("checkpointReasons", "expected.checkpointReasons", func(e *fixture.Expected, _ *fixture.Fixture) { e.CheckpointReasons = []string{"pause"} }),
		Entry("completionIssuesInclude", "expected.completionIssuesInclude[0]", func(e *fixture.Expected, _ *fixture.Fixture) {
			e.CompletionIssuesInclude = []string{"DIFF_NOT_REVIEWED"}
		}),
		Entry("contextPressures", "expected.contextPressures", func(e *fixture.Expected, _ *fixture.Fixture) { e.ContextPressures = []string{"blocked"} }),
		Entry("modelRequestCount", "expected.modelRequestCount", func(e *fixture.Expected, _ *fixture.Fixture) { e.ModelRequestCount = n(obs.ModelRequestCount + 1) }),
		Entry("retryDelaysMs", "expected.retryDelaysMs", func(e *fixture.Expected, _ *fixture.Fixture) { e.RetryDelaysMs = []int{1000} }),
		Entry("allModelStepsConsumed", "expected.allModelStepsConsumed", func(e *fixture.Expected, _ *fixture.Fixture) { e.AllModelStepsConsumed = f(false) }),
		Entry("minTraceEvents", "expected.minTraceEvents", func(e *fixture.Expected, _ *fixture.Fixture) { e.MinTraceEvents = n(len(obs.TraceKinds) + 1) }),
		Entry("traceKindsInclude", "expected.traceKindsInclude", func(e *fixture.Expected, _ *fixture.Fixture) { e.TraceKindsInclude = []string{"no_such_kind"} }),
		Entry("transitionsInclude", "expected.transitionsInclude", func(e *fixture.Expected, _ *fixture.Fixture) { e.TransitionsInclude = []string{"completed->created"} }),
		Entry("controls (always)", "controls", func(_ *fixture.Expected, f *fixture.Fixture) {
			f.Controls = []model.Control{{Action: model.ActionPause, Event: model.OnToolStart, Occurrence: 99}}
		}),
	)

	It("checks write evidence against the harness's own snapshot", func() {
		o := *obs
		o.Writes = nil
		Expect(oracle.Check(fx, &o)).To(ContainElement(HaveField("Assertion", "writeEvidence")))
		o.Writes = []port.Write{{Path: "hello.txt", AfterHash: s("0000"), AfterKind: "file"}}
		Expect(oracle.Check(fx, &o)).To(ContainElement(HaveField("Assertion", "writeEvidence")))
	})

	It("checks the integrity of every persisted checkpoint", func() {
		o := *obs
		o.Checkpoints = []oracle.Checkpoint{{Reason: "pause", IntegrityError: "content hash mismatch"}}
		f := wrong(func(e *fixture.Expected, _ *fixture.Fixture) { e.CheckpointReasons = []string{"pause"} })
		Expect(oracle.Check(f, &o)).To(ConsistOf(HaveField("Assertion", "checkpointIntegrity")))
	})
})
