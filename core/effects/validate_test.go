package effects_test

import (
	"encoding/json"
	"slices"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/internal/toolfacts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("ValidateProfile", func() {
	var tools []effects.ToolRef

	BeforeEach(func() { tools = refs(toolfacts.All()) })

	validate := func(t []effects.ToolRef, p map[string][]string) []string {
		return effects.ValidateProfile(effects.ProfileInput{Tools: t, Profile: p})
	}

	It("reports descriptor problems in order", func() {
		t := []effects.ToolRef{
			{ID: " ", ModelName: "a"},
			{ID: "x.one", ModelName: "b"},
			{ID: "x.one", ModelName: "c"},
			{ID: "", ModelName: "\u3000"},
			{ID: "x.two", ModelName: "b"},
		}
		Expect(validate(t, map[string][]string{"x.one": {"approval"}, "x.two": {"approval"}})).To(Equal([]string{
			"Catalog contains an empty canonical tool ID.",
			"Duplicate canonical tool ID: x.one.",
			"Catalog contains an empty canonical tool ID.",
			"Tool <empty> has an empty model name.",
			"Duplicate model-facing tool name: b.",
		}))
	})

	It("names a blank model name by its ID", func() {
		Expect(validate([]effects.ToolRef{{ID: "x.one", ModelName: " "}}, map[string][]string{"x.one": {}})).
			To(Equal([]string{"Tool x.one has an empty model name."}))
	})

	It("reports missing and unknown tools in sorted order", func() {
		p := effects.CoreProfile()
		delete(p, "workspace.write")
		delete(p, "artifact.list")
		p["zz.extra"] = []string{"approval"}
		p["aa.extra"] = []string{"approval"}
		Expect(validate(tools, p)).To(Equal([]string{
			"Effect profile is missing core tool artifact.list.",
			"Effect profile is missing core tool workspace.write.",
			"Effect profile contains unknown core tool aa.extra.",
			"Effect profile contains unknown core tool zz.extra.",
		}))
	})

	It("reports duplicates, order and unknown capabilities per entry", func() {
		p := effects.CoreProfile()
		p["command.run"] = []string{"approval", "approval", "state_version", "write"}
		p["git.exec"] = []string{"inspect", "approval", "diff_review"}
		p["workspace.read"] = []string{"approval", "execute", "inspect", "zap"}
		Expect(validate(tools, p)).To(Equal([]string{
			"Effect profile for command.run contains duplicates.",
			"Effect profile for command.run must use canonical deterministic order.",
			"Effect profile for git.exec must use canonical deterministic order.",
			"Effect profile for workspace.read contains unknown capability execute.",
			"Effect profile for workspace.read contains unknown capability zap.",
		}))
	})

	It("does not report order for a trailing duplicate alone", func() {
		p := effects.CoreProfile()
		p["artifact.list"] = []string{"approval", "approval"}
		Expect(validate(tools, p)).To(Equal([]string{"Effect profile for artifact.list contains duplicates."}))
	})

	It("orders IDs by UTF-16 code units", func() {
		// U+1F600 (surrogates D83D DE00) sorts before U+FF5E in UTF-16
		// order, after it in UTF-8 byte order.
		t := []effects.ToolRef{{ID: "\U0001F600", ModelName: "a"}, {ID: "\uFF5E", ModelName: "b"}}
		Expect(validate(t, map[string][]string{})).To(Equal([]string{
			"Effect profile is missing core tool \U0001F600.",
			"Effect profile is missing core tool \uFF5E.",
		}))
	})

	It("uses the core profile when none is given, and an empty one as given", func() {
		Expect(validate(tools, nil)).To(BeEmpty())
		Expect(validate(tools, map[string][]string{})).To(HaveLen(21))
	})

	Describe("ValidateProfileJSON", func() {
		It("accepts the core profile", func() {
			issues, err := effects.ValidateProfileJSON(tools, []byte(coreProfileJSON()))
			Expect(err).NotTo(HaveOccurred())
			Expect(issues).To(BeEmpty())
		})

		It("reports a value that is not an array and skips its other checks", func() {
			issues, err := effects.ValidateProfileJSON(tools[:1], []byte(`{"artifact.create":"approval"}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(issues).To(Equal([]string{"Effect profile for artifact.create must be an array."}))
			issues, _ = effects.ValidateProfileJSON(tools[:1], []byte(`{"artifact.create":null}`))
			Expect(issues).To(Equal([]string{"Effect profile for artifact.create must be an array."}))
		})

		It("reports elements that are not strings as unknown capabilities", func() {
			issues, err := effects.ValidateProfileJSON(tools[:1], []byte(`{"artifact.create":["approval",true]}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(issues).To(Equal([]string{"Effect profile for artifact.create contains unknown capability true."}))
		})

		It("fails for input that is not an object", func() {
			_, err := effects.ValidateProfileJSON(tools, []byte(`[]`))
			Expect(err).To(MatchError(ContainSubstring("effects: profile is not a JSON object")))
			_, err = effects.ValidateProfileJSON(tools, []byte(`null`))
			Expect(err).To(HaveOccurred())
		})
	})

	Describe("AssertProfile", func() {
		It("joins every issue with a space", func() {
			p := effects.CoreProfile()
			delete(p, "user.ask")
			p["git.exec"] = []string{"wrote"}
			err := effects.AssertProfile(effects.ProfileInput{Tools: tools, Profile: p})
			Expect(err).To(MatchError("Invalid AI Coder core tool effect profile: " +
				"Effect profile is missing core tool user.ask. " +
				"Effect profile for git.exec contains unknown capability wrote."))
		})
	})
})

var _ = Describe("AssertCoreCapabilities", func() {
	It("accepts the profile in any order", func() {
		Expect(effects.AssertCoreCapabilities("command.run", []string{"write", "approval", "state_version"})).To(Succeed())
		for _, id := range effects.CoreToolIDs() {
			caps, _ := effects.CoreCapabilities(id)
			slices.Reverse(caps)
			Expect(effects.AssertCoreCapabilities(id, caps)).To(Succeed(), id)
		}
	})

	It("ignores tools outside the core catalog", func() {
		Expect(effects.AssertCoreCapabilities("mcp.anything", []string{"write", "write", "bogus"})).To(Succeed())
	})

	DescribeTable("rejects drift with the exact message",
		func(id string, actual []string, msg string) {
			Expect(effects.AssertCoreCapabilities(id, actual)).To(MatchError(msg))
		},
		Entry("a missing capability", "command.run", []string{"approval", "write"},
			"Core tool command.run effect capabilities drifted; expected [approval, state_version, write], received [approval, write]."),
		Entry("an extra capability", "workspace.read", []string{"inspect", "approval", "write"},
			"Core tool workspace.read effect capabilities drifted; expected [approval, inspect], received [inspect, approval, write]."),
		Entry("a duplicate", "artifact.list", []string{"approval", "approval"},
			"Core tool artifact.list effect capabilities drifted; expected [approval], received [approval, approval]."),
		Entry("nothing", "git.exec", []string{},
			"Core tool git.exec effect capabilities drifted; expected [approval, diff_review, inspect], received []."),
	)
})

func coreProfileJSON() string {
	data, err := json.Marshal(effects.CoreProfile())
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}
