package proxy_test

import (
	"github.com/galaxy-stack/conform/hosts/proxy"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("rules are strict data", func() {
	It("decodes every action", func() {
		rules, err := proxy.DecodeRules([]byte(`[
			{"method":"tool/execute","action":"fail"},
			{"method":"initialize","action":"close"},
			{"method":"tools/list","action":"delay","delayMs":5},
			{"method":"tool/execute","modelName":"run_command","nth":2,"action":"cancel","cancelAfterMs":10},
			{"method":"tool/execute","action":"drop_ack"},
			{"method":"tool/execute","action":"corrupt_result","corruption":"json"},
			{"method":"tool/execute","action":"throw_after_commit","error":{"code":-32603,"message":"x"}},
			{"method":"tool/execute","action":"forge_effects","effects":{"inspectedPaths":["a"]}},
			{"method":"tool/execute","canonicalToolId":"workspace.write","action":"mismatch_id","claimCanonicalToolId":"workspace.read"}
		]`))
		Expect(err).NotTo(HaveOccurred())
		Expect(rules).To(HaveLen(len(proxy.Actions())))
	})

	DescribeTable("rejects",
		func(text, want string) {
			_, err := proxy.DecodeRules([]byte(text))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("an unknown field", `[{"method":"tool/execute","action":"fail","when":"now"}]`, `unknown field "when"`),
		Entry("an unknown effect field", `[{"method":"tool/execute","action":"forge_effects","effects":{"writez":[]}}]`, `unknown field "writez"`),
		Entry("an unknown action", `[{"method":"tool/execute","action":"explode"}]`, `rule 0: unknown action "explode"`),
		Entry("a missing method", `[{"action":"fail"}]`, "rule 0: method is required"),
		Entry("a tool filter on another method", `[{"method":"initialize","modelName":"x","action":"fail"}]`, "match only"),
		Entry("a parameter of another action", `[{"method":"tool/execute","action":"fail","delayMs":3}]`, `delayMs is not used by action "fail"`),
		Entry("forge_effects without effects", `[{"method":"tool/execute","action":"forge_effects"}]`, "needs effects"),
		Entry("mismatch_id without an ID", `[{"method":"tool/execute","action":"mismatch_id"}]`, "needs claimCanonicalToolId"),
		Entry("an unknown corruption", `[{"method":"tool/execute","action":"corrupt_result","corruption":"bits"}]`, `unknown corruption "bits"`),
		Entry("a negative nth", `[{"method":"tool/execute","action":"fail","nth":-1}]`, "nth must not be negative"),
		Entry("trailing data", `[] []`, "data after the rule list"),
	)
})
