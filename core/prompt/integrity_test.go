package prompt_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

// runIntegrity computes the integrity of a request as the controller does.
func runIntegrity(req map[string]any, caps port.ModelCapabilities, ts port.ToolSet) prompt.Integrity {
	r, err := parse(req)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	c := prompt.ContractForRequest(r)
	task := prompt.UserTaskForRequest(r, c)
	ExpectWithOffset(1, prompt.CheckCommandEnvironment(r.Prompt, ts.CanonicalToolIDs)).To(Succeed())
	snap, err := prompt.Assemble(prompt.Options{Config: r.Prompt, Capabilities: caps, Mode: r.ModeOrDefault(),
		RegistrySnapshotHash: ts.SnapshotHash, TaskID: r.TaskID, WorkspacePath: prompt.WorkspaceRoot()})
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return prompt.NewIntegrity(prompt.IntegrityInput{Request: r, Contract: c, UserTask: task, Prompt: snap,
		Capabilities: caps, Identity: caps.Identity, ToolSet: ts})
}

func toolSet() port.ToolSet {
	return port.ToolSet{
		CanonicalToolIDs:   map[string]string{"read_file": "workspace.read", "run_command": "command.run"},
		EffectCapabilities: map[string][]string{"workspace.read": {"inspect"}, "command.run": {"write", "validation", "write"}},
		SnapshotHash:       "sha256:" + repeat("c", 64),
	}
}

var _ = Describe("Resume compatibility inputs (CONTRACTS §9.8, DECISIONS 33; S000 items 17–18)", func() {
	It("fills every prompt-side compatibility value", func() {
		in := runIntegrity(validRequest(), capabilities(), toolSet())
		for _, h := range []string{in.CapabilitiesHash, in.EffectCapabilitiesHash, in.PromptHash, in.SystemPromptHash, in.TaskContractHash} {
			Expect(h).To(MatchRegexp(hashPattern.String()))
		}
		Expect(in.PromptVersion).To(Equal(prompt.Version))
		Expect(in.RegistrySnapshotHash).To(Equal(toolSet().SnapshotHash))
		Expect(in.ModelIdentity).To(Equal(`{"baseUrl":"https://provider.invalid/","model":"coding-model","provider":"test"}`))
		Expect(runIntegrity(validRequest(), capabilities(), toolSet())).To(Equal(in), "deterministic")
	})

	It("hashes the system prompt string canonically", func() {
		want, err := canon.Hash("abc")
		Expect(err).NotTo(HaveOccurred())
		Expect(prompt.SystemPromptHash("abc")).To(Equal(want))
	})

	It("is unchanged by a fresh capability probe timestamp", func() {
		later := capabilities()
		later.Evidence[0].ObservedAt = "2027-06-01T12:00:00.000Z"
		Expect(runIntegrity(validRequest(), later, toolSet())).To(Equal(runIntegrity(validRequest(), capabilities(), toolSet())))
	})

	DescribeTable("rejects a changed prompt configuration: the prompt or system-prompt hash differs",
		func(mutate func(map[string]any)) {
			base := runIntegrity(validRequest(), capabilities(), toolSet())
			req := validRequest()
			mutate(req)
			got := runIntegrity(req, capabilities(), toolSet())
			Expect(got.PromptHash).NotTo(Equal(base.PromptHash))
			Expect(got.SystemPromptHash).NotTo(Equal(base.SystemPromptHash))
		},
		Entry("networkAccess", set("prompt.networkAccess", "denied")),
		Entry("writeAccess", set("prompt.writeAccess", "policy_gated")),
		Entry("approvalProfile", set("prompt.approvalProfile", "strict")),
		Entry("mode", set("mode", "refactor")),
		Entry("trusted instructions", set("prompt.trustedWorkspaceInstructions", []any{})),
	)

	DescribeTable("changes the task-contract hash with the task",
		func(mutate func(map[string]any)) {
			base := runIntegrity(validRequest(), capabilities(), toolSet())
			req := validRequest()
			mutate(req)
			Expect(runIntegrity(req, capabilities(), toolSet()).TaskContractHash).NotTo(Equal(base.TaskContractHash))
		},
		Entry("goal", set("goal", "Another goal")),
		Entry("criteria", set("acceptanceCriteria", []any{})),
		Entry("constraints", set("constraints", []any{"other"})),
		Entry("contextData", set("contextData", []any{map[string]any{"source": "memory", "content": "x"}})),
		Entry("attachments", set("attachments", []any{attachment()})),
		Entry("completion", set("completion", map[string]any{"requireValidation": true})),
		Entry("agent profile's inspection default", set("prompt.agentProfile", "assistant")),
	)

	It("hashes the effect policy independent of order and duplicates", func() {
		a := prompt.EffectCapabilitiesHash(map[string][]string{"a.b": {"write", "inspect", "write"}, "c.d": nil})
		b := prompt.EffectCapabilitiesHash(map[string][]string{"c.d": {}, "a.b": {"inspect", "write"}})
		Expect(a).To(Equal(b))
		Expect(prompt.EffectCapabilitiesHash(map[string][]string{"a.b": {"inspect"}, "c.d": {}})).NotTo(Equal(a))
	})

	It("changes the capabilities hash with a semantic capability only", func() {
		c := capabilities()
		base := prompt.CapabilitiesHash(c)
		c.Evidence[0].ObservedAt = "later"
		Expect(prompt.CapabilitiesHash(c)).To(Equal(base))
		c.Thinking = "none"
		Expect(prompt.CapabilitiesHash(c)).NotTo(Equal(base))
	})

	It("keeps each evidence item's source and verification in the capabilities hash", func() {
		base := prompt.CapabilitiesHash(capabilities())
		unverified := capabilities()
		unverified.Evidence[0].Verified = false
		Expect(prompt.CapabilitiesHash(unverified)).NotTo(Equal(base))
		catalogued := capabilities()
		catalogued.Evidence[0].Source = port.EvidenceCatalog
		Expect(prompt.CapabilitiesHash(catalogued)).NotTo(Equal(base))
	})

	DescribeTable("keeps only the public part of the model endpoint",
		func(raw, want string) {
			id := port.ModelIdentity{BaseURL: raw, Model: "m", Provider: "p", Tag: "t"}
			key := prompt.ModelIdentityKey(id)
			Expect(key).To(Equal(`{"baseUrl":"` + want + `","model":"m","provider":"p","tag":"t"}`))
			Expect(prompt.PublicModelIdentity(id)).To(Equal(port.ModelIdentity{BaseURL: want, Model: "m", Provider: "p", Tag: "t"}),
				"the public identity is the key's object")
		},
		Entry("credentials, query and fragment", "https://user:secret@API.example.com:8443/v1?key=abc#frag", "https://api.example.com:8443/v1"),
		Entry("default port and empty path", "http://localhost:80", "http://localhost/"),
		Entry("unparsable", "not a url", "[invalid-model-endpoint]"),
		Entry("empty", "", "[invalid-model-endpoint]"),
	)
})
