package window_test

import (
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/window"
)

var _ = Describe("MandatoryState (RUNTIME §28)", func() {
	base := func() window.StateInput {
		var writes []any
		for i := 1; i <= 205; i++ {
			writes = append(writes, map[string]any{"path": fmt.Sprintf("f%d.go", i)})
		}
		var problems []string
		for i := 1; i <= 10; i++ {
			problems = append(problems, fmt.Sprintf("problem %d password=hunter2 %s", i, strings.Repeat("x", 1200)))
		}
		title := "Docs"
		return window.StateInput{
			AcceptanceCriteria: []any{map[string]any{"id": "c1", "status": "pending"}},
			Approvals:          []string{"granted:req-1:write_file:call-1"},
			Decisions:          []string{"use a map"},
			Writes:             writes,
			MaxTurns:           12, ModelTurns: 13, MaxToolCalls: 20, ToolCalls: 5,
			NextAction:       "run the tests",
			OpenProblems:     problems,
			State:            "executing",
			PendingApprovals: []window.StatePendingApproval{{RequestID: "req-2", ToolCallID: "call-9", ToolName: "command_run"}},
			Plan:             map[string]any{"completed": []string{}, "inProgress": nil, "pending": []string{"test"}},
			ResearchSources:  []window.StateResearchSource{{Kind: "fetch", Summary: "s", Title: &title, URL: "https://example.com"}},
			Validation:       []window.StateValidation{{ID: "unit", Sequence: 3, Status: "passed"}},
			WorkspaceRoot:    "/workspace",
		}
	}

	It("writes every key of the document as stable JSON", func() {
		text, err := window.MandatoryState(base())
		Expect(err).NotTo(HaveOccurred())
		var doc map[string]any
		Expect(json.Unmarshal([]byte(text), &doc)).To(Succeed())
		keys := make([]string, 0, len(doc))
		for k := range doc {
			keys = append(keys, k)
		}
		Expect(keys).To(ConsistOf("acceptanceCriteria", "approvals", "decisions", "editedFiles", "editedFilesTotal", "executionBudget",
			"nextAction", "openProblems", "phase", "pendingApprovals", "plan", "researchSources", "validation", "workspaceRoot"))
		Expect(text).To(HavePrefix(`{"acceptanceCriteria":[{"id":"c1","status":"pending"}],"approvals":`), "keys are sorted")
		Expect(doc["editedFiles"]).To(HaveLen(200))
		Expect(doc["editedFiles"].([]any)[0]).To(Equal(map[string]any{"path": "f6.go"}), "the last 200 writes")
		Expect(doc["editedFilesTotal"]).To(Equal(205.0))
		Expect(doc["executionBudget"]).To(Equal(map[string]any{"remainingModelTurns": 0.0, "remainingToolCalls": 15.0,
			"totalModelTurns": 12.0, "totalToolCalls": 20.0}))
		problems := doc["openProblems"].([]any)
		Expect(problems).To(HaveLen(8))
		Expect(problems[0]).To(HavePrefix("problem 3 password=[REDACTED] "))
		Expect(problems[0]).To(HaveLen(1000))
		Expect(doc["nextAction"]).To(Equal("run the tests"))
		Expect(doc["phase"]).To(Equal("executing"))
		Expect(doc["pendingApprovals"]).To(Equal([]any{map[string]any{"requestId": "req-2", "toolCallId": "call-9", "toolName": "command_run"}}))
		Expect(doc["researchSources"]).To(Equal([]any{map[string]any{"contentHash": nil, "kind": "fetch", "summary": "s", "title": "Docs",
			"truncated": false, "url": "https://example.com"}}))
		Expect(doc["validation"]).To(Equal([]any{map[string]any{"id": "unit", "paths": []any{}, "sequence": 3.0, "status": "passed"}}))
		Expect(doc["workspaceRoot"]).To(Equal("/workspace"))
	})

	It("says finalizing and the finalization next action in finalization mode", func() {
		in := base()
		in.Finalizing = true
		text, err := window.MandatoryState(in)
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(ContainSubstring(`"nextAction":"Return the user-facing final report without requesting tools or further work."`))
		Expect(text).To(ContainSubstring(`"phase":"finalizing"`))
	})

	It("writes empty lists, not null, for missing evidence", func() {
		text, err := window.MandatoryState(window.StateInput{State: "inspecting"})
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal(`{"acceptanceCriteria":[],"approvals":[],"decisions":[],"editedFiles":[],"editedFilesTotal":0,` +
			`"executionBudget":{"remainingModelTurns":0,"remainingToolCalls":0,"totalModelTurns":0,"totalToolCalls":0},` +
			`"nextAction":"","openProblems":[],"pendingApprovals":[],"phase":"inspecting","plan":null,"researchSources":[],` +
			`"validation":[],"workspaceRoot":""}`))
	})
})
