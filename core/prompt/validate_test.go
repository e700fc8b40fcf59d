package prompt_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

// set returns a mutation that sets path (dot-separated keys) to v in a
// request map.
func set(path string, v any) func(map[string]any) {
	return func(req map[string]any) {
		keys := strings.Split(path, ".")
		m := req
		for _, k := range keys[:len(keys)-1] {
			m = m[k].(map[string]any)
		}
		m[keys[len(keys)-1]] = v
	}
}

// del returns a mutation that removes path from a request map.
func del(path string) func(map[string]any) {
	return func(req map[string]any) {
		keys := strings.Split(path, ".")
		m := req
		for _, k := range keys[:len(keys)-1] {
			m = m[k].(map[string]any)
		}
		delete(m, keys[len(keys)-1])
	}
}

// both applies two mutations.
func both(a, b func(map[string]any)) func(map[string]any) {
	return func(req map[string]any) { a(req); b(req) }
}

func repeat(s string, n int) string { return strings.Repeat(s, n) }

func items(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"source": "memory", "content": "x"}
	}
	return out
}

const (
	msgLegacy          = " is no longer accepted; provide the structured prompt configuration."
	msgHostFields      = "prompt.hostEnvironment contains unknown or missing fields."
	msgHostMalformed   = "prompt.hostEnvironment is malformed."
	msgCommandFields   = "prompt.hostEnvironment.command contains unknown or missing fields."
	msgCommandBad      = "prompt.hostEnvironment.command is malformed."
	msgInstructions    = "prompt.trustedWorkspaceInstructions is malformed."
	msgContextData     = "Invalid or oversized context data."
	msgCriteria        = "acceptanceCriteria is malformed."
	msgCompletionBool  = "completion requirements must be boolean values."
	msgCompletionKey   = "completion contains an unknown requirement."
	msgResearchKey     = "completion.research contains an unknown requirement."
	msgDomains         = "completion.research.requiredDomains must contain normalized host names."
	msgAttachments     = "attachments is malformed."
	msgConstraints     = "constraints must contain non-empty strings."
	msgPromptObject    = "prompt must be a structured configuration object."
	msgMinFetch        = "completion.research.minFetchCalls must be a non-negative safe integer."
	msgMinSearch       = "completion.research.minSearchCalls must be a non-negative safe integer."
	msgCitations       = "completion.research.requireCitations must be boolean."
	msgResearchObject  = "completion.research must be an object."
	msgHostObject      = "prompt.hostEnvironment must be an object when supplied."
	msgCommandObject   = "prompt.hostEnvironment.command must be an object."
	msgDirty           = "prompt.dirtyStateSummary must be a string when supplied."
	msgDuplicateIDs    = "acceptanceCriteria ids must be unique."
	msgApprovalProfile = "prompt.approvalProfile is invalid."
)

func attachment() map[string]any {
	return map[string]any{
		"artifactId": "a-1", "contentSha256": "abc", "mimeType": "image/png", "name": "shot.png",
		"provenance": map[string]any{"source": "clipboard"}, "retention": "default", "trust": "untrusted_data",
	}
}

var _ = Describe("ParseRequest rejections (RUNTIME §4.2–§4.3, CONTRACTS §9.1–§9.3)", func() {
	DescribeTable("rejects with the original's TypeError message",
		func(mutate func(map[string]any), want string) {
			req := validRequest()
			mutate(req)
			_, err := parse(req)
			Expect(rejection(err)).To(Equal(want))
		},
		// Legacy fields, checked first, by presence (null counts).
		Entry("legacy systemPrompt", set("systemPrompt", "You are..."), "systemPrompt"+msgLegacy),
		Entry("legacy promptHash", set("promptHash", "sha256:00"), "promptHash"+msgLegacy),
		Entry("legacy promptVersion", set("promptVersion", "ai-coder-single/2.8.0"), "promptVersion"+msgLegacy),
		Entry("legacy workspaceInstructions", set("workspaceInstructions", []any{"x"}), "workspaceInstructions"+msgLegacy),
		Entry("legacy field with a null value", set("systemPrompt", nil), "systemPrompt"+msgLegacy),
		Entry("legacy before unknown keys", both(set("zzz", 1), set("workspaceInstructions", "x")), "workspaceInstructions"+msgLegacy),
		Entry("legacy fields in the original's order", both(set("systemPrompt", "x"), set("promptVersion", "x")), "promptVersion"+msgLegacy),
		Entry("legacy before every other rule", both(del("goal"), set("promptHash", "x")), "promptHash"+msgLegacy),
		// Unknown keys at every level.
		Entry("unknown request key", set("systemprompt", "x"), "Run request contains unknown field systemprompt."),
		Entry("unknown prompt key", set("prompt.temperature", 0.2), "prompt contains unknown field temperature."),
		Entry("legacy name inside prompt", set("prompt.systemPrompt", "x"), "prompt contains unknown field systemPrompt."),
		Entry("unknown hostEnvironment key", set("prompt.hostEnvironment.shell", "zsh"), msgHostFields),
		Entry("missing hostEnvironment key", del("prompt.hostEnvironment.architecture"), msgHostFields),
		Entry("unknown command key", set("prompt.hostEnvironment.command.env", map[string]any{}), msgCommandFields),
		Entry("missing command key", del("prompt.hostEnvironment.command.tty"), msgCommandFields),
		Entry("unknown instruction key", set("prompt.trustedWorkspaceInstructions", []any{map[string]any{"content": "c", "source": "s", "trust": "x"}}), msgInstructions),
		Entry("unknown contextData item key", set("contextData", []any{map[string]any{"content": "c", "source": "s", "trust": "x"}}), msgContextData),
		Entry("unknown criterion key", set("acceptanceCriteria", []any{map[string]any{"id": "a", "text": "t", "weight": 2}}), msgCriteria),
		Entry("unknown completion key", set("completion", map[string]any{"requireEverything": true}), msgCompletionKey),
		Entry("unknown research key", set("completion", map[string]any{"research": map[string]any{"maxCalls": 1}}), msgResearchKey),
		Entry("unknown attachment key", set("attachments", []any{func() map[string]any { a := attachment(); a["dataUrl"] = "x"; return a }()}), msgAttachments),
		Entry("unknown provenance key", set("attachments", []any{func() map[string]any {
			a := attachment()
			a["provenance"] = map[string]any{"source": "s", "x": 1}
			return a
		}()}), msgAttachments),
		// Required request fields.
		Entry("missing goal", del("goal"), "goal must be a non-empty string."),
		Entry("blank goal", set("goal", " \n\t"), "goal must be a non-empty string."),
		Entry("non-string goal", set("goal", 42), "goal must be a non-empty string."),
		Entry("empty runId", set("runId", ""), "runId must be a non-empty string."),
		Entry("non-string runId", set("runId", 7), "runId must be a non-empty string."),
		Entry("missing taskId", del("taskId"), "taskId must be a non-empty string."),
		Entry("missing workspaceRoot", del("workspaceRoot"), "workspaceRoot must be a non-empty string."),
		Entry("mode outside the five", set("mode", "fast"), "mode is invalid."),
		Entry("null mode", set("mode", nil), "mode is invalid."),
		Entry("constraints not a list", set("constraints", "be careful"), msgConstraints),
		Entry("blank constraint", set("constraints", []any{"ok", "  "}), msgConstraints),
		Entry("non-string constraint", set("constraints", []any{1}), msgConstraints),
		Entry("missing prompt", del("prompt"), msgPromptObject),
		Entry("null prompt", set("prompt", nil), msgPromptObject),
		Entry("array prompt", set("prompt", []any{}), msgPromptObject),
		Entry("string prompt", set("prompt", "You are a coder"), msgPromptObject),
		// Prompt fields and enums.
		Entry("bad agentProfile", set("prompt.agentProfile", "planner"), "Invalid agent profile."),
		Entry("null agentProfile", set("prompt.agentProfile", nil), "Invalid agent profile."),
		Entry("missing approvalProfile", del("prompt.approvalProfile"), msgApprovalProfile),
		Entry("bad approvalProfile", set("prompt.approvalProfile", "yolo"), msgApprovalProfile),
		Entry("array approvalProfile", set("prompt.approvalProfile", []any{"strict"}), msgApprovalProfile),
		Entry("missing complexity", del("prompt.complexity"), "prompt.complexity is invalid."),
		Entry("bad complexity", set("prompt.complexity", "trivial"), "prompt.complexity is invalid."),
		Entry("missing networkAccess", del("prompt.networkAccess"), "prompt.networkAccess is invalid."),
		Entry("bad networkAccess", set("prompt.networkAccess", "open"), "prompt.networkAccess is invalid."),
		Entry("missing writeAccess", del("prompt.writeAccess"), "prompt.writeAccess is invalid."),
		Entry("bad writeAccess", set("prompt.writeAccess", "denied_by_task_mode"), "prompt.writeAccess is invalid."),
		Entry("non-string dirtyStateSummary", set("prompt.dirtyStateSummary", 3), msgDirty),
		Entry("null dirtyStateSummary", set("prompt.dirtyStateSummary", nil), msgDirty),
		// hostEnvironment values (CONTRACTS §9.2).
		Entry("hostEnvironment not an object", set("prompt.hostEnvironment", "linux"), msgHostObject),
		Entry("null hostEnvironment", set("prompt.hostEnvironment", nil), msgHostObject),
		Entry("blank architecture", set("prompt.hostEnvironment.architecture", " "), msgHostMalformed),
		Entry("bad operatingSystem", set("prompt.hostEnvironment.operatingSystem", "freebsd"), msgHostMalformed),
		Entry("command not an object", set("prompt.hostEnvironment.command", "/bin/sh -c"), msgCommandObject),
		Entry("argumentsPrefix not a list", set("prompt.hostEnvironment.command.argumentsPrefix", "-c"), msgCommandBad),
		Entry("blank argument", set("prompt.hostEnvironment.command.argumentsPrefix", []any{"-c", " "}), msgCommandBad),
		Entry("argument with NUL", set("prompt.hostEnvironment.command.argumentsPrefix", []any{"-c\x00"}), msgCommandBad),
		Entry("blank executable", set("prompt.hostEnvironment.command.executable", ""), msgCommandBad),
		Entry("executable with NUL", set("prompt.hostEnvironment.command.executable", "/bin/sh\x00"), msgCommandBad),
		Entry("commandMode argv", set("prompt.hostEnvironment.command.commandMode", "argv"), msgCommandBad),
		Entry("interactive true", set("prompt.hostEnvironment.command.interactive", true), msgCommandBad),
		Entry("bad pathStyle", set("prompt.hostEnvironment.command.pathStyle", "dos"), msgCommandBad),
		Entry("bad shell", set("prompt.hostEnvironment.command.shell", "tcsh"), msgCommandBad),
		Entry("stdin inherited", set("prompt.hostEnvironment.command.stdin", "inherit"), msgCommandBad),
		Entry("tty true", set("prompt.hostEnvironment.command.tty", true), msgCommandBad),
		Entry("tty as a string", set("prompt.hostEnvironment.command.tty", "false"), msgCommandBad),
		// Trusted workspace instructions.
		Entry("instructions not a list", set("prompt.trustedWorkspaceInstructions", "Run tests."), msgInstructions),
		Entry("null instructions", set("prompt.trustedWorkspaceInstructions", nil), msgInstructions),
		Entry("instruction not an object", set("prompt.trustedWorkspaceInstructions", []any{"Run tests."}), msgInstructions),
		Entry("blank instruction content", set("prompt.trustedWorkspaceInstructions", []any{map[string]any{"content": " ", "source": "AGENTS.md"}}), msgInstructions),
		Entry("instruction without source", set("prompt.trustedWorkspaceInstructions", []any{map[string]any{"content": "c"}}), msgInstructions),
		Entry("blank contentHash", set("prompt.trustedWorkspaceInstructions", []any{map[string]any{"content": "c", "source": "s", "contentHash": ""}}), msgInstructions),
		// contextData (UTF-16 lengths).
		Entry("contextData not a list", set("contextData", map[string]any{}), msgContextData),
		Entry("33 contextData items", set("contextData", items(33)), msgContextData),
		Entry("contextData item without content", set("contextData", []any{map[string]any{"source": "s"}}), msgContextData),
		Entry("contextData source over 1024", set("contextData", []any{map[string]any{"source": repeat("s", 1025), "content": "c"}}), msgContextData),
		Entry("contextData source over 1024 UTF-16 units, 513 runes", set("contextData", []any{map[string]any{"source": repeat("😀", 513), "content": "c"}}), msgContextData),
		Entry("contextData content over 32000", set("contextData", []any{map[string]any{"source": "s", "content": repeat("c", 32001)}}), msgContextData),
		Entry("null contextData", set("contextData", nil), msgContextData),
		Entry("tokenProfile outside the three", set("tokenProfile", "huge"), "tokenProfile is invalid."),
		// acceptanceCriteria.
		Entry("criteria not a list", set("acceptanceCriteria", "works"), msgCriteria),
		Entry("null criteria", set("acceptanceCriteria", nil), msgCriteria),
		Entry("criterion as a plain string", set("acceptanceCriteria", []any{"works"}), msgCriteria),
		Entry("criterion without id", set("acceptanceCriteria", []any{map[string]any{"text": "t"}}), msgCriteria),
		Entry("criterion with blank text", set("acceptanceCriteria", []any{map[string]any{"id": "a", "text": " "}}), msgCriteria),
		Entry("non-boolean required", set("acceptanceCriteria", []any{map[string]any{"id": "a", "text": "t", "required": "yes"}}), msgCriteria),
		Entry("duplicate criterion ids", set("acceptanceCriteria", []any{map[string]any{"id": "a", "text": "t"}, map[string]any{"id": "a", "text": "u"}}), msgDuplicateIDs),
		Entry("malformed wins over duplicate", set("acceptanceCriteria", []any{map[string]any{"id": "a", "text": "t"}, map[string]any{"id": "a", "text": "u"}, 5}), msgCriteria),
		// completion.
		Entry("non-boolean requirement", set("completion", map[string]any{"requireTrace": "yes"}), msgCompletionBool),
		Entry("non-boolean unknown requirement: booleans first", set("completion", map[string]any{"requireAll": 1}), msgCompletionBool),
		Entry("completion not an object", set("completion", "all"), msgCompletionBool),
		Entry("research not an object", set("completion", map[string]any{"research": "yes"}), msgResearchObject),
		Entry("null research", set("completion", map[string]any{"research": nil}), msgResearchObject),
		Entry("negative minFetchCalls", set("completion", map[string]any{"research": map[string]any{"minFetchCalls": -1}}), msgMinFetch),
		Entry("fractional minSearchCalls", set("completion", map[string]any{"research": map[string]any{"minSearchCalls": 1.5}}), msgMinSearch),
		Entry("unsafe minFetchCalls", set("completion", map[string]any{"research": map[string]any{"minFetchCalls": 9007199254740992}}), msgMinFetch),
		Entry("string minFetchCalls", set("completion", map[string]any{"research": map[string]any{"minFetchCalls": "1"}}), msgMinFetch),
		Entry("non-boolean requireCitations", set("completion", map[string]any{"research": map[string]any{"requireCitations": 1}}), msgCitations),
		Entry("upper-case domain", set("completion", map[string]any{"research": map[string]any{"requiredDomains": []any{"Example.com"}}}), msgDomains),
		Entry("leading-dot domain", set("completion", map[string]any{"research": map[string]any{"requiredDomains": []any{".example.com"}}}), msgDomains),
		Entry("trailing-dot domain", set("completion", map[string]any{"research": map[string]any{"requiredDomains": []any{"example.com."}}}), msgDomains),
		Entry("domain with a path", set("completion", map[string]any{"research": map[string]any{"requiredDomains": []any{"example.com/docs"}}}), msgDomains),
		Entry("blank domain", set("completion", map[string]any{"research": map[string]any{"requiredDomains": []any{" "}}}), msgDomains),
		// attachments.
		Entry("attachments not a list", set("attachments", map[string]any{}), msgAttachments),
		Entry("attachment without artifactId", set("attachments", []any{func() map[string]any { a := attachment(); delete(a, "artifactId"); return a }()}), msgAttachments),
		Entry("trusted attachment", set("attachments", []any{func() map[string]any { a := attachment(); a["trust"] = "trusted"; return a }()}), msgAttachments),
		Entry("bad retention", set("attachments", []any{func() map[string]any { a := attachment(); a["retention"] = "forever"; return a }()}), msgAttachments),
		Entry("provenance without source", set("attachments", []any{func() map[string]any { a := attachment(); a["provenance"] = map[string]any{}; return a }()}), msgAttachments),
		// Deferred features (DECISIONS 15).
		Entry("planMode true", set("planMode", true), "planMode is not supported by this port."),
		Entry("compactOnStart true", set("compactOnStart", true), "compactOnStart is not supported by this port."),
		// Validation order (RUNTIME §4.3).
		Entry("goal before mode", both(del("goal"), set("mode", "x")), "goal must be a non-empty string."),
		Entry("constraints before prompt", both(set("constraints", 1), del("prompt")), msgConstraints),
		Entry("agentProfile before contextData", both(set("prompt.agentProfile", "x"), set("contextData", 1)), "Invalid agent profile."),
		Entry("contextData before unknown prompt keys", both(set("contextData", 1), set("prompt.x", 1)), msgContextData),
		Entry("unknown prompt key before approvalProfile", both(set("prompt.x", 1), del("prompt.approvalProfile")), "prompt contains unknown field x."),
		Entry("hostEnvironment before instructions", both(set("prompt.hostEnvironment", 1), set("prompt.trustedWorkspaceInstructions", 1)), msgHostObject),
		Entry("instructions before tokenProfile", both(set("prompt.trustedWorkspaceInstructions", 1), set("tokenProfile", "x")), msgInstructions),
		Entry("criteria before completion", both(set("acceptanceCriteria", 1), set("completion", 1)), msgCriteria),
		Entry("completion before attachments", both(set("completion", 1), set("attachments", 1)), msgCompletionBool),
		Entry("attachments before planMode", both(set("attachments", 1), set("planMode", true)), msgAttachments),
	)

	It("reports the first unknown key in JavaScript key order, not sorted order", func() {
		body := string(mustJSON(validRequest()))
		_, err := prompt.ParseRequest([]byte(`{"zeta":1,"alpha":2,`+body[1:]), "run-1")
		Expect(rejection(err)).To(Equal("Run request contains unknown field zeta."))
		_, err = prompt.ParseRequest([]byte(`{"zeta":1,"10":2,"9":3,`+body[1:]), "run-1")
		Expect(rejection(err)).To(Equal("Run request contains unknown field 9."))
	})

	It("needs a run ID on resume, where there is no fallback", func() {
		_, err := prompt.ParseRequest(mustJSON(validRequest()), "")
		Expect(rejection(err)).To(Equal("runId must be a non-empty string."))
		req := validRequest()
		req["runId"] = nil
		_, err = prompt.ParseRequest(mustJSON(req), "")
		Expect(rejection(err)).To(Equal("runId must be a non-empty string."))
	})

	It("fails plainly on text that is not one JSON object", func() {
		_, err := prompt.ParseRequest([]byte(`{"goal":`), "run-1")
		Expect(err).To(MatchError(ContainSubstring("prompt: read run request")))
		_, err = prompt.ParseRequest([]byte(`[]`), "run-1")
		Expect(rejection(err)).To(Equal("Run request must be an object."))
		_, err = prompt.ParseRequest([]byte(`{"goal":"a","goal":"b"}`), "run-1")
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("ParseRequest acceptance", func() {
	It("decodes every member with exact JSON names", func() {
		req := validRequest()
		req["runId"] = "run-7"
		req["tokenProfile"] = "conservative"
		req["budget"] = map[string]any{"maxTurns": 24}
		req["checkpointTrust"] = "trusted_host"
		req["checkpoint"] = map[string]any{"runId": "run-7"}
		req["contextData"] = []any{map[string]any{"source": "memory", "content": "prefers tabs"}}
		req["attachments"] = []any{attachment()}
		req["completion"] = map[string]any{"requireValidation": true, "research": map[string]any{
			"minFetchCalls": 1e0, "minSearchCalls": 2, "requireCitations": false, "requiredDomains": []any{"go.dev"}}}
		r, err := parse(req)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.RunID).To(Equal("run-7"))
		Expect(r.TokenProfile).To(Equal("conservative"))
		Expect(string(r.Budget)).To(Equal(`{"maxTurns":24}`))
		Expect(r.CheckpointTrust).To(Equal(prompt.CheckpointTrustedHost))
		Expect(r.ContextData).To(Equal([]prompt.ContextItem{{Content: "prefers tabs", Source: "memory"}}))
		Expect(r.Attachments[0].Provenance.Source).To(Equal("clipboard"))
		Expect(*r.Completion.RequireValidation).To(BeTrue())
		Expect(*r.Completion.Research.MinFetchCalls).To(BeEquivalentTo(1))
		Expect(r.Completion.Research.RequiredDomains).To(Equal([]string{"go.dev"}))
		Expect(r.Prompt.HostEnvironment.Command.ArgumentsPrefix).To(Equal([]string{"-c"}))
		Expect(r.Prompt.TrustedWorkspaceInstructions).To(Equal([]prompt.TrustedInstruction{
			{Content: "Run the focused parser tests first.", ContentHash: "sha256:00", Source: "AGENTS.md"}}))
		Expect(*r.Prompt.DirtyStateSummary).To(Equal("modified: src/parser.ts"))
	})

	It("uses the fallback run ID when the request has none", func() {
		r, err := parse(validRequest())
		Expect(err).NotTo(HaveOccurred())
		Expect(r.RunID).To(Equal("run-1"))
	})

	It("accepts the minimal request and the optional members' edge values", func() {
		req := map[string]any{"goal": "g", "taskId": "t", "workspaceRoot": "/w", "prompt": map[string]any{
			"approvalProfile": "strict", "complexity": "simple", "networkAccess": "denied", "writeAccess": "denied"}}
		r, err := parse(req)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.ModeOrDefault()).To(Equal(port.ModeAuto))
		Expect(r.TokenProfileOrDefault()).To(Equal(prompt.TokenBalanced))
		Expect(r.Prompt.Profile()).To(Equal(prompt.AgentCoding))
		Expect(r.Completion).To(BeNil())

		for _, mutate := range []func(map[string]any){
			set("completion", nil),        // null counts as no requirements
			set("planMode", "yes"),        // only true counts
			set("compactOnStart", false),  //
			set("contextData", items(32)), // the limit itself
			set("contextData", []any{map[string]any{"source": repeat("😀", 512), "content": repeat("c", 32000)}}),
			set("prompt.hostEnvironment", validHost()), // validated, even when command.run is inactive
			set("checkpointTrust", 5), // checked only at resume
			set("prompt.trustedWorkspaceInstructions", []any{}),
			set("acceptanceCriteria", []any{map[string]any{"id": "a", "text": "t", "required": false}}),
		} {
			req := map[string]any{"goal": "g", "taskId": "t", "workspaceRoot": "/w", "prompt": map[string]any{
				"approvalProfile": "strict", "complexity": "simple", "networkAccess": "denied", "writeAccess": "denied"}}
			mutate(req)
			_, err := parse(req)
			Expect(err).NotTo(HaveOccurred())
		}
		args := validRequest()
		set("prompt.hostEnvironment.command.argumentsPrefix", []any{})(args)
		_, err = parse(args)
		Expect(err).NotTo(HaveOccurred(), "an empty prefix is refused only when command.run is active")
	})

	It("snapshots: a non-coding agent profile defaults requireInspection to false", func() {
		req := validRequest()
		set("prompt.agentProfile", "research")(req)
		r, err := parse(req)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Completion).NotTo(BeNil())
		Expect(*r.Completion.RequireInspection).To(BeFalse())

		set("completion", map[string]any{"requireInspection": true})(req)
		r, err = parse(req)
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.Completion.RequireInspection).To(BeTrue(), "the caller can still require inspection")

		set("prompt.agentProfile", "coding")(req)
		del("completion")(req)
		r, err = parse(req)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Completion).To(BeNil())
	})

	It("snapshots share no memory with the original", func() {
		r, err := parse(validRequest())
		Expect(err).NotTo(HaveOccurred())
		s := r.Snapshot()
		s.Prompt.HostEnvironment.Command.ArgumentsPrefix[0] = "-x"
		s.Constraints[0] = "changed"
		s.Prompt.TrustedWorkspaceInstructions[0].Content = "changed"
		Expect(r.Prompt.HostEnvironment.Command.ArgumentsPrefix[0]).To(Equal("-c"))
		Expect(r.Constraints[0]).NotTo(Equal("changed"))
		Expect(r.Prompt.TrustedWorkspaceInstructions[0].Content).NotTo(Equal("changed"))
	})

	It("ValidateRequest applies the same rules to a request built in Go", func() {
		r, err := parse(validRequest())
		Expect(err).NotTo(HaveOccurred())
		Expect(prompt.ValidateRequest(r)).To(Succeed())

		bad := r.Snapshot()
		bad.Prompt.HostEnvironment.Command.Shell = "tcsh"
		Expect(rejection(prompt.ValidateRequest(bad))).To(Equal(msgCommandBad))
		bad = r.Snapshot()
		bad.Prompt.HostEnvironment.Command.ArgumentsPrefix = nil
		Expect(rejection(prompt.ValidateRequest(bad))).To(Equal(msgCommandBad))
		bad = r.Snapshot()
		bad.RunID = ""
		Expect(rejection(prompt.ValidateRequest(bad))).To(Equal("runId must be a non-empty string."))
		bad = r.Snapshot()
		bad.PlanMode = true
		Expect(rejection(prompt.ValidateRequest(bad))).To(Equal("planMode is not supported by this port."))
		bad = r.Snapshot()
		bad.Prompt.WriteAccess = ""
		Expect(rejection(prompt.ValidateRequest(bad))).To(Equal("prompt.writeAccess is invalid."))
	})
})
