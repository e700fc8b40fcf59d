package approval_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/approval"
	"github.com/galaxy-stack/conform/core/catalog"
)

var _ = Describe("profiles and risk", func() {
	It("lists the profiles and parses them", func() {
		Expect(approval.Profiles()).To(Equal([]approval.Profile{"strict", "balanced", "trusted-workspace"}))
		p, err := approval.ParseProfile("trusted-workspace")
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(Equal(approval.TrustedWorkspace))
		_, err = approval.ParseProfile("Strict")
		Expect(err).To(MatchError(`approval: unknown approval profile "Strict"`))
		Expect(approval.DefaultProfile).To(Equal(approval.Balanced))
	})

	It("orders risks and maps profiles to thresholds", func() {
		Expect([]int{approval.RiskRank("low"), approval.RiskRank("medium"), approval.RiskRank("high"), approval.RiskRank("critical")}).
			To(Equal([]int{0, 1, 2, 3}))
		Expect(approval.RiskRank("extreme")).To(Equal(-1))
		Expect(approval.Threshold(approval.Strict)).To(Equal("medium"))
		Expect(approval.Threshold(approval.Balanced)).To(Equal("high"))
		Expect(approval.Threshold(approval.TrustedWorkspace)).To(Equal("critical"))
		Expect(approval.Threshold("x")).To(Equal(""))
	})

	DescribeTable("Requires",
		func(p approval.Profile, risk, mutability string, want bool) {
			Expect(approval.Requires(p, catalog.Descriptor{ID: "t", Risk: risk, Mutability: mutability})).To(Equal(want))
		},
		Entry(nil, approval.Strict, "low", "write", false),
		Entry(nil, approval.Strict, "medium", "write", true),
		Entry(nil, approval.Balanced, "medium", "execute", false),
		Entry(nil, approval.Balanced, "high", "execute", true),
		Entry(nil, approval.TrustedWorkspace, "high", "execute", false),
		Entry(nil, approval.TrustedWorkspace, "critical", "read", true),
		Entry("external side effects always", approval.TrustedWorkspace, "low", "external_side_effect", true),
		Entry("fails closed on an unknown risk", approval.TrustedWorkspace, "extreme", "read", true),
		Entry("fails closed on an unknown profile", approval.Profile("x"), "low", "read", true),
	)
})

var _ = Describe("task modes", func() {
	It("denies every tool in an unknown mode", func() {
		p, err := approval.NewPolicy(approval.TrustedWorkspace, approval.WithPermissions(allPermissions...))
		Expect(err).NotTo(HaveOccurred())
		for _, mode := range []string{"plan", "", "AUTO"} {
			Expect(decide(p, tool("workspace.read"), mode).Code).To(Equal(approval.DenyRunMode), mode)
		}
		Expect(decide(p, tool("workspace.read"), "auto").Code).To(Equal(approval.AutoApprove))
	})
	It("lists the modes and codes", func() {
		Expect(approval.Modes()).To(Equal([]string{"auto", "scaffold", "refactor", "review_only", "validate_only"}))
		Expect(approval.Codes()).To(HaveLen(10))
	})
})

var _ = Describe("ManifestPermissions", func() {
	decode := func(s string) any {
		var v any
		Expect(json.Unmarshal([]byte(s), &v)).To(Succeed())
		return v
	}
	It("returns trimmed, non-empty string permissions", func() {
		Expect(approval.ManifestPermissions(decode(`{"permissions":[" fs.workspace ","",7,"\ufeffprocess.execute","  ","fs.workspace"]}`))).
			To(Equal([]string{"fs.workspace", "process.execute"}))
	})
	It("grants nothing for other shapes", func() {
		Expect(approval.ManifestPermissions(decode(`{"permissions":"fs.workspace"}`))).To(BeEmpty())
		Expect(approval.ManifestPermissions(decode(`["fs.workspace"]`))).To(BeEmpty())
		Expect(approval.ManifestPermissions(nil)).To(BeEmpty())
	})
})

var _ = Describe("Decision JSON", func() {
	It("uses the original field names", func() {
		data, err := json.Marshal(approval.Decision{Allowed: true, Code: approval.ApprovedByHost, Reason: "r", RequestID: "run-1:call-1", Scope: approval.ScopeOnce})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(Equal(`{"allowed":true,"decision":"approved_by_host","reason":"r","requestId":"run-1:call-1","approvalScope":"once"}`))
	})
})
