package effects_test

import (
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/internal/toolfacts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func toolSet(ids map[string]string, policy map[string][]string) port.ToolSet {
	ts := port.ToolSet{CanonicalToolIDs: ids, EffectCapabilities: policy, SnapshotHash: "sha256:x"}
	for name := range ids {
		ts.Definitions = append(ts.Definitions, port.ToolDefinition{Type: "function", Function: port.FunctionSpec{Name: name}})
	}
	return ts
}

var _ = Describe("CheckToolSet", func() {
	var meta effects.Metadata

	BeforeEach(func() {
		var active []effects.ToolRef
		for _, t := range toolfacts.All() {
			if t.EnabledByDefault {
				active = append(active, effects.ToolRef{ID: t.ID, ModelName: t.ModelName})
			}
		}
		var err error
		meta, err = effects.NewMetadata(active)
		Expect(err).NotTo(HaveOccurred())
	})

	It("accepts a tool set built from NewMetadata and returns the normalized policy", func() {
		policy, err := effects.CheckToolSet(toolSet(meta.CanonicalToolIDs, meta.EffectCapabilities))
		Expect(err).NotTo(HaveOccurred())
		Expect(policy).To(Equal(effects.CoreProfile()))
	})

	It("normalizes duplicates and order, and accepts extension tools", func() {
		p := effects.CoreProfile()
		p["command.run"] = []string{"write", "approval", "write", "state_version"}
		p["mcp.lint"] = []string{"inspect", "approval", "approval"}
		ids := map[string]string{"run_command": "command.run", "lint": "mcp.lint"}
		policy, err := effects.CheckToolSet(toolSet(ids, p))
		Expect(err).NotTo(HaveOccurred())
		Expect(policy["command.run"]).To(Equal([]string{"approval", "state_version", "write"}))
		Expect(policy["mcp.lint"]).To(Equal([]string{"approval", "inspect"}))
	})

	It("accepts a policy for an inactive tool", func() {
		_, err := effects.CheckToolSet(toolSet(map[string]string{}, effects.CoreProfile()))
		Expect(err).NotTo(HaveOccurred())
	})

	DescribeTable("rejects",
		func(edit func(ts *port.ToolSet), msg string) {
			ts := toolSet(meta.CanonicalToolIDs, meta.EffectCapabilities)
			edit(&ts)
			_, err := effects.CheckToolSet(ts)
			failWith(err, msg)
		},
		Entry("a missing mapping", func(ts *port.ToolSet) { ts.CanonicalToolIDs = nil },
			"Tool set is missing its host effect capability policy."),
		Entry("a missing policy", func(ts *port.ToolSet) { ts.EffectCapabilities = nil },
			"Tool set is missing its host effect capability policy."),
		Entry("a blank canonical ID in the mapping", func(ts *port.ToolSet) { ts.CanonicalToolIDs["read_file"] = " " },
			"Tool canonical id mapping is malformed."),
		Entry("a blank model name in the mapping", func(ts *port.ToolSet) { ts.CanonicalToolIDs[""] = "workspace.read" },
			"Tool canonical id mapping is malformed."),
		Entry("a definition without a mapping", func(ts *port.ToolSet) { delete(ts.CanonicalToolIDs, "read_file") },
			"Every active model tool must have exactly one canonical tool id mapping."),
		Entry("a mapping without a definition", func(ts *port.ToolSet) { ts.CanonicalToolIDs["ask_user"] = "user.ask" },
			"Every active model tool must have exactly one canonical tool id mapping."),
		Entry("a duplicated definition", func(ts *port.ToolSet) { ts.Definitions = append(ts.Definitions, ts.Definitions[0]) },
			"Every active model tool must have exactly one canonical tool id mapping."),
		Entry("two names for one canonical ID", func(ts *port.ToolSet) {
			ts.CanonicalToolIDs["cat"] = "workspace.read"
			ts.Definitions = append(ts.Definitions, port.ToolDefinition{Function: port.FunctionSpec{Name: "cat"}})
		}, "Active model tools must map one-to-one to canonical tool ids."),
		Entry("a blank policy ID", func(ts *port.ToolSet) { ts.EffectCapabilities[" "] = []string{"approval"} },
			"Tool effect capability policy is malformed."),
		Entry("an unknown capability", func(ts *port.ToolSet) { ts.EffectCapabilities["mcp.x"] = []string{"approval", "launch"} },
			"Unknown effect capability declared for mcp.x."),
		Entry("a drifted core policy", func(ts *port.ToolSet) {
			ts.EffectCapabilities["workspace.read"] = []string{"write", "inspect", "approval"}
		},
			"Core tool workspace.read effect capabilities drifted; expected [approval, inspect], received [approval, inspect, write]."),
		Entry("a narrowed core policy", func(ts *port.ToolSet) { ts.EffectCapabilities["research.fetch"] = []string{"approval"} },
			"Core tool research.fetch effect capabilities drifted; expected [approval, research], received [approval]."),
		Entry("active tools without policy", func(ts *port.ToolSet) {
			delete(ts.EffectCapabilities, "workspace.write")
			delete(ts.EffectCapabilities, "command.run")
		}, "Active tools are missing effect capability policies: command.run, workspace.write."),
	)
})
