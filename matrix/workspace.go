package matrix

import (
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func text(s string) *string { return &s }

var _ = describeItem(1, func() {
	It("completes a scripted list/read/detect run without changing the workspace", func() {
		out := runSession(session.Scenario{
			Name: "read-only-inspect",
			Task: "Inspect the existing project and report its language, entry point, and declared test command.",
			Files: map[string]string{
				"package.json":       "{\n  \"private\": true,\n  \"scripts\": { \"test\": \"node --test\" }\n}\n",
				"src/index.ts":       "export const entry = true;\n",
				"test/index.test.ts": "// deterministic test marker\n",
			},
			Rounds: []model.Round{
				{ToolCalls: []model.ToolCall{{ToolCallID: "list", ToolName: "list_files", Arguments: map[string]any{"path": "."}}}, FinishReason: "tool_calls"},
				{ToolCalls: []model.ToolCall{{ToolCallID: "detect", ToolName: "detect_project", Arguments: map[string]any{"path": "."}}}, FinishReason: "tool_calls"},
				{ToolCalls: []model.ToolCall{{ToolCallID: "read-entry", ToolName: "read_file", Arguments: map[string]any{"path": "src/index.ts"}}}, FinishReason: "tool_calls"},
				{Content: text("The observed TypeScript entry point is src/index.ts and package.json declares node --test."), FinishReason: "stop"},
			},
		})
		Expect(out.Result.Status).To(Equal("completed"), "run ended %s %s: %s", out.Result.Status, out.Result.ErrorCode, out.Result.ErrorMessage)
		Expect(out.ToolSequence()).To(Equal([]string{"list_files", "detect_project", "read_file"}))
		Expect(out.ModelConsumed).To(BeTrue(), "every scripted model round is consumed")
		for _, c := range out.Result.Calls {
			Expect(c.Result).NotTo(BeNil())
			Expect(c.Result.OK).To(BeTrue(), "call %s failed: %s", c.Call.ToolCallID, c.Result.Content)
			Expect(c.Result.EffectsAuthority).To(Equal("host"), "call %s carries host-attested effects", c.Call.ToolCallID)
			Expect(c.Result.Effects).NotTo(BeNil())
			Expect(c.Result.Effects.InspectedPaths).NotTo(BeEmpty(), "call %s attests what it inspected", c.Call.ToolCallID)
			Expect(c.Result.Effects.Writes).To(BeEmpty(), "a read-only call attests no writes")
		}
		Expect(out.Result.Calls[1].Result.Content).To(And(ContainSubstring("TypeScript"), ContainSubstring("node --test"), ContainSubstring(`"complete":true`)))
		Expect(out.Result.Calls[2].Result.Content).To(ContainSubstring("entry = true"))
		Expect(out.Result.FinalResponse).To(ContainSubstring("src/index.ts"))
		Expect(out.Changes()).To(BeEmpty(), "the harness's own snapshot shows no workspace change")
	})
})
