package approval_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/approval"
)

const defaultSettingsJSON = `{"executionMode":"single","safety":{"approvalProfile":"balanced"},"schemaVersion":2,` +
	`"singleAgent":{"baseUrl":"https://ollama.com","credentialSource":"manual-config","maxParallelToolCalls":1,` +
	`"maxRetries":3,"maxToolCalls":48,"maxToolRounds":24,"maxTurns":24,"model":"deepseek-v4.1-flash:cloud",` +
	`"preserveThinking":true,"provider":"ollama","requestTimeoutMs":180000,"temperature":0,"tokenProfile":"balanced"}}`

var _ = Describe("Settings", func() {
	It("has the defaults of CONTRACTS §10.4", func() {
		s := approval.DefaultSettings()
		Expect(s.Validate()).To(Succeed())
		data, err := json.Marshal(s)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(MatchJSON(defaultSettingsJSON))
		parsed, err := approval.ParseSettings([]byte(defaultSettingsJSON))
		Expect(err).NotTo(HaveOccurred())
		Expect(parsed).To(Equal(s))
	})

	It("ignores unknown fields and accepts integral floats", func() {
		in := strings.Replace(defaultSettingsJSON, `"maxTurns":24`, `"maxTurns":24.0,"extra":true`, 1)
		s, err := approval.ParseSettings([]byte(in))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.SingleAgent.MaxTurns).To(Equal(24))
	})

	DescribeTable("ParseSettings rejects",
		func(from, to, msg string) {
			in := strings.Replace(defaultSettingsJSON, from, to, 1)
			Expect(in).NotTo(Equal(defaultSettingsJSON), "replacement must apply")
			_, err := approval.ParseSettings([]byte(in))
			Expect(err).To(MatchError(msg))
		},
		Entry("a multi-agent mode", `"executionMode":"single"`, `"executionMode":"multiple"`, `approval: settings field "executionMode" must be "single"`),
		Entry("schema version 1", `"schemaVersion":2`, `"schemaVersion":1`, `approval: settings field "schemaVersion" must be 2`),
		Entry("a string schema version", `"schemaVersion":2`, `"schemaVersion":"2"`, `approval: settings field "schemaVersion" must be an integer`),
		Entry("an unknown profile", `"approvalProfile":"balanced"`, `"approvalProfile":"yolo"`, `approval: settings field "safety.approvalProfile" must be strict, balanced or trusted-workspace`),
		Entry("no safety object", `"safety":{"approvalProfile":"balanced"}`, `"safety":[]`, `approval: settings field "safety" must be an object`),
		Entry("an empty base URL", `"baseUrl":"https://ollama.com"`, `"baseUrl":""`, `approval: settings field "singleAgent.baseUrl" must be a non-empty string`),
		Entry("an unknown credential source", `"manual-config"`, `"env"`, `approval: settings field "singleAgent.credentialSource" must be manual-config or secret-handle`),
		Entry("zero parallel calls", `"maxParallelToolCalls":1`, `"maxParallelToolCalls":0`, `approval: settings field "singleAgent.maxParallelToolCalls" must be a positive integer`),
		Entry("negative retries", `"maxRetries":3`, `"maxRetries":-1`, `approval: settings field "singleAgent.maxRetries" must be an integer >= 0`),
		Entry("fractional tool calls", `"maxToolCalls":48`, `"maxToolCalls":4.5`, `approval: settings field "singleAgent.maxToolCalls" must be an integer`),
		Entry("zero tool rounds", `"maxToolRounds":24`, `"maxToolRounds":0`, `approval: settings field "singleAgent.maxToolRounds" must be a positive integer`),
		Entry("no turns", `"maxTurns":24,`, ``, `approval: settings field "singleAgent.maxTurns" must be an integer`),
		Entry("an empty model", `"model":"deepseek-v4.1-flash:cloud"`, `"model":""`, `approval: settings field "singleAgent.model" must be a non-empty string`),
		Entry("a string boolean", `"preserveThinking":true`, `"preserveThinking":"true"`, `approval: settings field "singleAgent.preserveThinking" must be a boolean`),
		Entry("an unknown provider", `"provider":"ollama"`, `"provider":"local"`, `approval: settings field "singleAgent.provider" must be a known provider`),
		Entry("a zero timeout", `"requestTimeoutMs":180000`, `"requestTimeoutMs":0`, `approval: settings field "singleAgent.requestTimeoutMs" must be a positive integer`),
		Entry("a hot temperature", `"temperature":0`, `"temperature":2.5`, `approval: settings field "singleAgent.temperature" must be a number in 0..2`),
		Entry("a string temperature", `"temperature":0`, `"temperature":"0"`, `approval: settings field "singleAgent.temperature" must be a number`),
		Entry("an unknown token profile", `"tokenProfile":"balanced"`, `"tokenProfile":"huge"`, `approval: settings field "singleAgent.tokenProfile" must be balanced, conservative or extended`),
	)

	It("rejects input that is not an object", func() {
		_, err := approval.ParseSettings([]byte(`[1]`))
		Expect(err).To(MatchError("approval: settings are not a JSON object"))
	})

	It("accepts every provider, profile and credential source", func() {
		for _, p := range []string{"anthropic", "openai", "gemini", "ollama", "openai-compatible", "host"} {
			s := approval.DefaultSettings()
			s.SingleAgent.Provider = p
			Expect(s.Validate()).To(Succeed(), p)
		}
		s := approval.DefaultSettings()
		s.Safety.ApprovalProfile = approval.TrustedWorkspace
		s.SingleAgent.CredentialSource = "secret-handle"
		s.SingleAgent.TokenProfile = "extended"
		s.SingleAgent.Temperature = 2
		s.SingleAgent.MaxRetries = 0
		Expect(s.Validate()).To(Succeed())
	})
})
