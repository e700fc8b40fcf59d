package oracle_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

// An assertionCase is a deliberately wrong expectation for one key of
// expected and the exact failures it must produce against baseRun.
type assertionCase struct {
	key    string
	name   string
	mutate func(r *run)
	want   []oracle.Failure // File is filled in from the fixture
	line   string           // the rendering of want[0]
}

func f(assertion, expected, actual, message string) oracle.Failure {
	return oracle.Failure{Assertion: assertion, Expected: expected, Actual: actual, Message: message}
}

var assertionCases = []assertionCase{
	{
		key: "status", name: "a different status",
		mutate: func(r *run) { r.fx.Expected.Status = fixture.StatusFailed },
		want:   []oracle.Failure{f("expected.status", "failed", "completed", "Expected status failed, received completed.")},
		line:   "fixtures/base.json: expected.status: expected failed, got completed",
	},
	{
		key: "errorCode", name: "an error where there is none",
		mutate: func(r *run) { r.fx.Expected.ErrorCode = fixture.Str("TOOL_EXECUTION") },
		want:   []oracle.Failure{f("expected.errorCode", "TOOL_EXECUTION", "null", "Expected error TOOL_EXECUTION, received null.")},
		line:   "fixtures/base.json: expected.errorCode: expected TOOL_EXECUTION, got null",
	},
	{
		key: "errorCode", name: "null where there is an error",
		mutate: func(r *run) { r.obs.ErrorCode = ptr("BUDGET_EXCEEDED") },
		want:   []oracle.Failure{f("expected.errorCode", "null", "BUDGET_EXCEEDED", "Expected error null, received BUDGET_EXCEEDED.")},
		line:   "fixtures/base.json: expected.errorCode: expected null, got BUDGET_EXCEEDED",
	},
	{
		key: "executionStatuses", name: "one execution fewer",
		mutate: func(r *run) { r.fx.Expected.ExecutionStatuses = []string{"completed"} },
		want: []oracle.Failure{f("expected.executionStatuses", "[completed]", "[paused completed]",
			`Expected execution statuses ["completed"], received ["paused","completed"].`)},
		line: "fixtures/base.json: expected.executionStatuses: expected [completed], got [paused completed]",
	},
	{
		key: "toolSequence", name: "a call too many",
		mutate: func(r *run) { r.fx.Expected.ToolSequence = append(r.fx.Expected.ToolSequence, "read_file") },
		want: []oracle.Failure{f("expected.toolSequence", "[read_file write_file read_file]", "[read_file write_file]",
			`Expected tool sequence ["read_file","write_file","read_file"], received ["read_file","write_file"].`)},
		line: "fixtures/base.json: expected.toolSequence: expected [read_file write_file read_file], got [read_file write_file]",
	},
	{
		key: "toolSequence", name: "the right calls in the wrong order",
		mutate: func(r *run) { r.fx.Expected.ToolSequence = []string{"write_file", "read_file"} },
		want: []oracle.Failure{f("expected.toolSequence", "[write_file read_file]", "[read_file write_file]",
			`Expected tool sequence ["write_file","read_file"], received ["read_file","write_file"].`)},
		line: "fixtures/base.json: expected.toolSequence: expected [write_file read_file], got [read_file write_file]",
	},
	{
		key: "toolResults", name: "a result too many",
		mutate: func(r *run) {
			r.fx.Expected.ToolResults = append(r.fx.Expected.ToolResults, fixture.ExpectedToolResult{OK: ptr(false)})
		},
		want: []oracle.Failure{f("expected.toolResults", "3 tool results", "2", "Expected 3 tool results, received 2.")},
		line: "fixtures/base.json: expected.toolResults: expected 3 tool results, got 2",
	},
	{
		key: "toolResults", name: "a wrong toolName",
		mutate: func(r *run) { r.fx.Expected.ToolResults[0].ToolName = ptr("list_files") },
		want:   []oracle.Failure{f("expected.toolResults[0].toolName", "list_files", "read_file", "Tool result 1 name mismatch.")},
		line:   "fixtures/base.json: expected.toolResults[0].toolName: expected list_files, got read_file",
	},
	{
		key: "toolResults", name: "a wrong canonicalToolId",
		mutate: func(r *run) { r.fx.Expected.ToolResults[1].CanonicalToolID = ptr("workspace.edit") },
		want: []oracle.Failure{f("expected.toolResults[1].canonicalToolId", "workspace.edit", "workspace.write",
			"Tool result 2 canonical id mismatch.")},
		line: "fixtures/base.json: expected.toolResults[1].canonicalToolId: expected workspace.edit, got workspace.write",
	},
	{
		key: "toolResults", name: "a wrong ok",
		mutate: func(r *run) { r.fx.Expected.ToolResults[0].OK = ptr(false) },
		want:   []oracle.Failure{f("expected.toolResults[0].ok", "false", "true", "Tool result 1 ok mismatch.")},
		line:   "fixtures/base.json: expected.toolResults[0].ok: expected false, got true",
	},
	{
		key: "toolResults", name: "an error code on a success",
		mutate: func(r *run) { r.fx.Expected.ToolResults[1].ErrorCode = fixture.Str("PRECONDITION_FAILED") },
		want: []oracle.Failure{f("expected.toolResults[1].errorCode", "PRECONDITION_FAILED", "null",
			"Tool result 2 error code mismatch.")},
		line: "fixtures/base.json: expected.toolResults[1].errorCode: expected PRECONDITION_FAILED, got null",
	},
	{
		key: "toolResults", name: "a summary fragment that is not there",
		mutate: func(r *run) { r.fx.Expected.ToolResults[0].SummaryIncludes = ptr("wrote") },
		want: []oracle.Failure{f("expected.toolResults[0].summaryIncludes", `summary including "wrote"`, `"read a.txt (2 bytes)"`,
			`Tool result 1 summary lacks "wrote".`)},
		line: `fixtures/base.json: expected.toolResults[0].summaryIncludes: expected summary including "wrote", got "read a.txt (2 bytes)"`,
	},
	{
		key: "toolResults", name: "a content fragment that is not there",
		mutate: func(r *run) {
			r.fx.Expected.ToolResults[0].ContentIncludes = append(r.fx.Expected.ToolResults[0].ContentIncludes, `"complete":true`)
		},
		want: []oracle.Failure{f("expected.toolResults[0].contentIncludes[1]", `content including "\"complete\":true"`,
			`"{\"path\":\"a.txt\",\"content\":\"a\\n\"}"`, `Tool result 1 content lacks "\"complete\":true".`)},
		line: `fixtures/base.json: expected.toolResults[0].contentIncludes[1]: expected content including "\"complete\":true", got "{\"path\":\"a.txt\",\"content\":\"a\\n\"}"`,
	},
	{
		key: "files", name: "absent on a file that exists",
		mutate: func(r *run) { r.fx.Expected.Files[0] = fixture.ExpectedFile{Path: "a.txt", Absent: true} },
		want:   []oracle.Failure{f("expected.files[0].absent", "no entry at 'a.txt'", "file", "Expected file 'a.txt' to be absent.")},
		line:   "fixtures/base.json: expected.files[0].absent: expected no entry at 'a.txt', got file",
	},
	{
		key: "files", name: "absent on a directory",
		mutate: func(r *run) { r.fx.Expected.Files[2].Path = "src" },
		want:   []oracle.Failure{f("expected.files[2].absent", "no entry at 'src'", "directory", "Expected file 'src' to be absent.")},
		line:   "fixtures/base.json: expected.files[2].absent: expected no entry at 'src', got directory",
	},
	{
		key: "files", name: "a file that does not exist",
		mutate: func(r *run) {
			r.fx.Expected.Files = append(r.fx.Expected.Files, fixture.ExpectedFile{Path: "nope.txt"})
		},
		want: []oracle.Failure{f("expected.files[3]", "readable file 'nope.txt'", "missing (NOT_FOUND)",
			"Expected file 'nope.txt' is unreadable: NOT_FOUND.")},
		line: "fixtures/base.json: expected.files[3]: expected readable file 'nope.txt', got missing (NOT_FOUND)",
	},
	{
		key: "files", name: "a directory where a file is expected",
		mutate: func(r *run) {
			r.fx.Expected.Files = append(r.fx.Expected.Files, fixture.ExpectedFile{Path: "src", Content: ptr("")})
		},
		want: []oracle.Failure{f("expected.files[3]", "readable file 'src'", "directory (INVALID_INPUT)",
			"Expected file 'src' is unreadable: INVALID_INPUT.")},
		line: "fixtures/base.json: expected.files[3]: expected readable file 'src', got directory (INVALID_INPUT)",
	},
	{
		key: "files", name: "other content",
		mutate: func(r *run) { r.fx.Expected.Files[0].Content = ptr("A\n") },
		want: []oracle.Failure{f("expected.files[0].content", `"A\n"`, `"a\n"`,
			"File 'a.txt' content does not match the fixture.")},
		line: `fixtures/base.json: expected.files[0].content: expected "A\n", got "a\n"`,
	},
	{
		key: "files", name: "a content fragment that is not there",
		mutate: func(r *run) { r.fx.Expected.Files[1].ContentIncludes = []string{"b", "zzz"} },
		want: []oracle.Failure{f("expected.files[1].contentIncludes[1]", `content including "zzz"`, `"b\n"`,
			`File 'src/b.txt' does not include "zzz".`)},
		line: `fixtures/base.json: expected.files[1].contentIncludes[1]: expected content including "zzz", got "b\n"`,
	},
	{
		key: "files", name: "unchanged on a created file",
		mutate: func(r *run) { r.fx.Expected.Files[1].Unchanged = true },
		want: []oracle.Failure{f("expected.files[1].unchanged", "same entry before and after", "missing -> file "+sha("b\n"),
			"File 'src/b.txt' was expected to remain byte-identical.")},
		line: "fixtures/base.json: expected.files[1].unchanged: expected same entry before and after, got missing -> file " + sha("b\n"),
	},
	{
		key: "files", name: "unchanged on a file rewritten with the same length",
		mutate: func(r *run) {
			write(r.dir, "a.txt", "A\n")
			r.retake()
			r.obs.Writes = append(r.obs.Writes, portWrite("a.txt", sha("a\n"), sha("A\n")))
			r.fx.Expected.Files[0].Content = nil
			r.fx.Expected.Files[0].ContentIncludes = nil
			r.fx.Expected.AllowedChanges = append(r.fx.Expected.AllowedChanges, "a.txt")
		},
		want: []oracle.Failure{f("expected.files[0].unchanged", "same entry before and after",
			"file "+sha("a\n")+" -> file "+sha("A\n"), "File 'a.txt' was expected to remain byte-identical.")},
		line: "fixtures/base.json: expected.files[0].unchanged: expected same entry before and after, got file " + sha("a\n") + " -> file " + sha("A\n"),
	},
	{
		key: "allowedChanges", name: "a directory left out",
		mutate: func(r *run) { r.fx.Expected.AllowedChanges = []string{"src/b.txt"} },
		want: []oracle.Failure{f("expected.allowedChanges", "[src/b.txt]", "[src src/b.txt]",
			`Expected changed paths ["src/b.txt"], received ["src","src/b.txt"].`)},
		line: "fixtures/base.json: expected.allowedChanges: expected [src/b.txt], got [src src/b.txt]",
	},
	{
		key: "allowedChanges", name: "nothing changed asserted",
		mutate: func(r *run) { r.fx.Expected.AllowedChanges = []string{} },
		want: []oracle.Failure{f("expected.allowedChanges", "[]", "[src src/b.txt]",
			`Expected changed paths [], received ["src","src/b.txt"].`)},
		line: "fixtures/base.json: expected.allowedChanges: expected [], got [src src/b.txt]",
	},
	{
		key: "finalResponseIncludes", name: "a fragment that is not there",
		mutate: func(r *run) {
			r.fx.Expected.FinalResponseIncludes = append(r.fx.Expected.FinalResponseIncludes, "tests passed")
		},
		want: []oracle.Failure{f("expected.finalResponseIncludes[1]", `final response including "tests passed"`,
			`"Done: wrote src/b.txt."`, `Final response does not include "tests passed".`)},
		line: `fixtures/base.json: expected.finalResponseIncludes[1]: expected final response including "tests passed", got "Done: wrote src/b.txt."`,
	},
	{
		key: "finalResponseExcludes", name: "a fragment that is there",
		mutate: func(r *run) {
			r.fx.Expected.FinalResponseExcludes = append(r.fx.Expected.FinalResponseExcludes, "Done")
		},
		want: []oracle.Failure{f("expected.finalResponseExcludes[1]", `final response without "Done"`,
			`"Done: wrote src/b.txt."`, `Final response unexpectedly includes "Done".`)},
		line: `fixtures/base.json: expected.finalResponseExcludes[1]: expected final response without "Done", got "Done: wrote src/b.txt."`,
	},
	{
		key: "checkpointReasons", name: "a checkpoint too many",
		mutate: func(r *run) { r.fx.Expected.CheckpointReasons = []string{"pause", "failure"} },
		want: []oracle.Failure{f("expected.checkpointReasons", "[pause failure]", "[pause]",
			`Expected checkpoint reasons ["pause","failure"], received ["pause"].`)},
		line: "fixtures/base.json: expected.checkpointReasons: expected [pause failure], got [pause]",
	},
	{
		key: "completionIssuesInclude", name: "an issue no rejection raised",
		mutate: func(r *run) {
			r.fx.Expected.CompletionIssuesInclude = append(r.fx.Expected.CompletionIssuesInclude, "trace")
		},
		want: []oracle.Failure{f("expected.completionIssuesInclude[1]", `a completion issue including "trace"`,
			`["diff not reviewed" "validation evidence is missing"]`, `Completion rejection does not include "trace".`)},
		line: `fixtures/base.json: expected.completionIssuesInclude[1]: expected a completion issue including "trace", got ["diff not reviewed" "validation evidence is missing"]`,
	},
	{
		key: "contextPressures", name: "a pressure fewer",
		mutate: func(r *run) { r.fx.Expected.ContextPressures = []string{"normal"} },
		want: []oracle.Failure{f("expected.contextPressures", "[normal]", "[normal tighten]",
			`Expected context pressures ["normal"], received ["normal","tighten"].`)},
		line: "fixtures/base.json: expected.contextPressures: expected [normal], got [normal tighten]",
	},
	{
		key: "modelRequestCount", name: "one request more",
		mutate: func(r *run) { r.fx.Expected.ModelRequestCount = ptr(5) },
		want:   []oracle.Failure{f("expected.modelRequestCount", "5", "4", "Expected 5 model requests, received 4.")},
		line:   "fixtures/base.json: expected.modelRequestCount: expected 5, got 4",
	},
	{
		key: "retryDelaysMs", name: "a delay fewer",
		mutate: func(r *run) { r.fx.Expected.RetryDelaysMs = []int{0} },
		want: []oracle.Failure{f("expected.retryDelaysMs", "[0]", "[0 250]",
			"Expected retry delays [0], received [0,250].")},
		line: "fixtures/base.json: expected.retryDelaysMs: expected [0], got [0 250]",
	},
	{
		key: "allModelStepsConsumed", name: "false when all were consumed",
		mutate: func(r *run) { r.fx.Expected.AllModelStepsConsumed = ptr(false) },
		want: []oracle.Failure{f("expected.allModelStepsConsumed", "false", "true (3/3 rounds and 2/2 token-count steps)",
			"Expected allModelStepsConsumed=false, received true (3/3 rounds and 2/2 token-count steps).")},
		line: "fixtures/base.json: expected.allModelStepsConsumed: expected false, got true (3/3 rounds and 2/2 token-count steps)",
	},
	{
		key: "allModelStepsConsumed", name: "true when a token-count step was left",
		mutate: func(r *run) { r.obs.ModelTokenCountStepsConsumed = 1 },
		want: []oracle.Failure{f("expected.allModelStepsConsumed", "true", "false (3/3 rounds and 1/2 token-count steps)",
			"Expected allModelStepsConsumed=true, received false (3/3 rounds and 1/2 token-count steps).")},
		line: "fixtures/base.json: expected.allModelStepsConsumed: expected true, got false (3/3 rounds and 1/2 token-count steps)",
	},
	{
		key: "minTraceEvents", name: "more events than recorded",
		mutate: func(r *run) { r.fx.Expected.MinTraceEvents = ptr(5) },
		want: []oracle.Failure{f("expected.minTraceEvents", "at least 5 trace events", "4",
			"Expected at least 5 trace events, received 4.")},
		line: "fixtures/base.json: expected.minTraceEvents: expected at least 5 trace events, got 4",
	},
	{
		key: "traceKindsInclude", name: "a kind never recorded",
		mutate: func(r *run) {
			r.fx.Expected.TraceKindsInclude = append(r.fx.Expected.TraceKindsInclude, "checkpoint_saved")
		},
		want: []oracle.Failure{f("expected.traceKindsInclude[2]", "trace kind checkpoint_saved",
			"[run_completed run_started tool_result]", "Trace does not include kind 'checkpoint_saved'.")},
		line: "fixtures/base.json: expected.traceKindsInclude[2]: expected trace kind checkpoint_saved, got [run_completed run_started tool_result]",
	},
	{
		key: "transitionsInclude", name: "a transition never made",
		mutate: func(r *run) { r.fx.Expected.TransitionsInclude = []string{"running->paused", "paused->failed"} },
		want: []oracle.Failure{f("expected.transitionsInclude[1]", "transition paused->failed",
			"[created->running running->paused paused->running running->completed]",
			"Transitions do not include 'paused->failed'.")},
		line: "fixtures/base.json: expected.transitionsInclude[1]: expected transition paused->failed, got [created->running running->paused paused->running running->completed]",
	},
}

// belongsTo reports whether assertion is the key's assertion or one of its
// members or entries.
func belongsTo(assertion, key string) bool {
	p := "expected." + key
	return assertion == p || strings.HasPrefix(assertion, p+"[") || strings.HasPrefix(assertion, p+".")
}

func withFile(file string, fs []oracle.Failure) []oracle.Failure {
	out := make([]oracle.Failure, len(fs))
	for i, f := range fs {
		f.File = file
		out[i] = f
	}
	return out
}

var _ = Describe("Check", func() {
	It("passes a run that meets every declared key", func() {
		r := baseRun()
		Expect(oracle.Check(r.fx, r.obs)).To(BeEmpty())
	})

	It("asserts completion when expected is left out", func() {
		r := baseRun()
		r.fx.Expected = nil
		Expect(oracle.Check(r.fx, r.obs)).To(BeEmpty())
		r.obs.Status = fixture.StatusFailed
		Expect(oracle.Check(r.fx, r.obs)).To(Equal(withFile("fixtures/base.json", []oracle.Failure{
			f("expected.status", "completed", "failed", "Expected status completed, received failed."),
		})))
	})

	It("compares only the tool results both lists have", func() {
		r := baseRun()
		r.fx.Expected.ToolResults = append(r.fx.Expected.ToolResults, fixture.ExpectedToolResult{ToolName: ptr("x")})
		Expect(oracle.Check(r.fx, r.obs)).To(HaveExactElements(
			HaveField("Assertion", "expected.toolResults"),
		))
	})

	It("sorts the declared allowedChanges before comparing", func() {
		r := baseRun()
		r.fx.Expected.AllowedChanges = []string{"src/b.txt", "src"}
		Expect(oracle.Check(r.fx, r.obs)).To(BeEmpty())
		Expect(r.fx.Expected.AllowedChanges).To(Equal([]string{"src/b.txt", "src"}), "Check must not modify the fixture")
	})

	It("reports every failure, in the original's order", func() {
		r := baseRun()
		r.fx.Expected.TransitionsInclude = []string{"x->y"}
		r.fx.Expected.Status = fixture.StatusPaused
		r.fx.Expected.ModelRequestCount = ptr(1)
		Expect(oracle.Check(r.fx, r.obs)).To(HaveExactElements(
			HaveField("Assertion", "expected.status"),
			HaveField("Assertion", "expected.modelRequestCount"),
			HaveField("Assertion", "expected.transitionsInclude[0]"),
		))
	})

	Describe("each key of expected", func() {
		for _, key := range expectedKeys() {
			It(fmt.Sprintf("passes %s alone when it holds", key), func() {
				r := baseRun()
				r.fx.Expected = only(r.fx.Expected, key)
				r.read()
				Expect(oracle.Check(r.fx, r.obs)).To(BeEmpty())
			})
		}
	})

	Describe("a deliberately wrong expectation", func() {
		for _, tc := range assertionCases {
			It(fmt.Sprintf("fails %s on %s", tc.key, tc.name), func() {
				r := baseRun()
				tc.mutate(r)
				r.read()
				got := oracle.Check(r.fx, r.obs)
				Expect(got).To(Equal(withFile(r.fx.File, tc.want)))
				Expect(got[0].String()).To(Equal(tc.line))

				By("failing on the key alone")
				r.fx.Expected = only(r.fx.Expected, tc.key)
				r.read()
				alone := oracle.Check(r.fx, r.obs)
				Expect(alone).NotTo(BeEmpty())
				for _, fl := range alone {
					Expect(belongsTo(fl.Assertion, tc.key)).To(BeTrue(), "%s is not an assertion of %s", fl.Assertion, tc.key)
				}
			})
		}
	})

	It("has a passing and a failing test for every key of expected", func() {
		covered := map[string]int{}
		for _, tc := range assertionCases {
			_, known := fieldIndex(tc.key)
			Expect(known).To(BeTrue(), "case %q names no key of fixture.Expected", tc.key)
			covered[tc.key]++
		}
		for _, key := range expectedKeys() {
			Expect(covered).To(HaveKey(key), "no failing case checks expected.%s", key)
		}
		Expect(expectedKeys()).To(HaveLen(18), "fixture.Expected changed: add its checks and cases")
	})
})
