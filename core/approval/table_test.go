package approval_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/approval"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/internal/goldenfile"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Hand-written from CONTRACTS §10.1 (the "ask" cells) and §3.1 with its
// audit correction (the tools each read-only mode removes).
var (
	ask = map[approval.Profile][]string{
		approval.Strict: {"command.run", "command.session", "preview.manage", "project.validate",
			"research.fetch", "research.search", "workspace.edit", "workspace.write"},
		approval.Balanced:         {"command.run", "command.session", "project.validate", "research.fetch", "research.search"},
		approval.TrustedWorkspace: {"research.fetch", "research.search"},
	}
	removed = map[string][]string{
		"review_only": {"artifact.create", "command.run", "command.session", "preview.manage", "project.validate",
			"task.checkpoint", "workspace.edit", "workspace.write"},
		"validate_only": {"artifact.create", "command.run", "command.session", "preview.manage", "research.fetch",
			"research.search", "task.checkpoint", "workspace.edit", "workspace.write"},
	}
)

func grant(context.Context, approval.Request, port.ToolContext) (approval.HostDecision, error) {
	return approval.HostDecision{Approved: true, DecidedAt: "2026-01-01T00:00:00Z", Scope: approval.ScopeOnce}, nil
}

func deny(context.Context, approval.Request, port.ToolContext) (approval.HostDecision, error) {
	return approval.HostDecision{Approved: false, DecidedAt: "2026-01-01T00:00:00Z", Scope: approval.ScopeRun, Reason: "no"}, nil
}

func decide(p *approval.Policy, d catalog.Descriptor, mode string) approval.Decision {
	return p.Decide(context.Background(), approval.Call{
		Tool: d, Arguments: map[string]any{},
		Context: port.ToolContext{RunID: "run-1", ToolCallID: "call-1", Mode: mode},
	})
}

func renderDecisions() string {
	var b strings.Builder
	b.WriteString("# Approval decisions for every core tool, profile and task mode (CONTRACTS §3.1, §10),\n")
	b.WriteString("# all permissions granted, default transports, no approver.\n")
	b.WriteString("# Rewrite with: go test ./core/approval -run TestApproval -update\n")
	for _, d := range loadTools() {
		for _, profile := range approval.Profiles() {
			p, err := approval.NewPolicy(profile, approval.WithPermissions(allPermissions...))
			Expect(err).NotTo(HaveOccurred())
			for _, mode := range approval.Modes() {
				fmt.Fprintf(&b, "%s %s %s %s\n", d.ID, profile, mode, decide(p, d, mode).Code)
			}
		}
	}
	return b.String()
}

var _ = Describe("decision table: 21 tools × 3 profiles × 5 modes", func() {
	It("matches the golden table", func() {
		path := filepath.Join("testdata", "decisions.golden")
		Expect(goldenfile.Check(path, renderDecisions(), "go test ./core/approval -update")).To(Succeed())
	})

	It("follows the hand-written matrix of CONTRACTS §10.1 and §3.1", func() {
		approvers := map[string]approval.Approver{"none": nil, "granting": approval.ApproverFunc(grant), "denying": approval.ApproverFunc(deny)}
		cells := 0
		for _, d := range loadTools() {
			for _, profile := range approval.Profiles() {
				for _, name := range []string{"none", "granting", "denying"} {
					opts := []approval.Option{approval.WithPermissions(allPermissions...)}
					if a := approvers[name]; a != nil {
						opts = append(opts, approval.WithApprover(a))
					}
					p, err := approval.NewPolicy(profile, opts...)
					Expect(err).NotTo(HaveOccurred())
					for _, mode := range approval.Modes() {
						want := approval.AutoApprove
						switch {
						case slices.Contains(removed[mode], d.ID):
							want = approval.DenyRunMode
						case slices.Contains(ask[profile], d.ID) && name == "none":
							want = approval.DenyApprovalUnavailable
						case slices.Contains(ask[profile], d.ID) && name == "granting":
							want = approval.ApprovedByHost
						case slices.Contains(ask[profile], d.ID):
							want = approval.DeniedByHost
						}
						got := decide(p, d, mode)
						where := fmt.Sprintf("%s %s %s approver=%s", d.ID, profile, mode, name)
						Expect(got.Code).To(Equal(want), where)
						Expect(got.Allowed).To(Equal(want == approval.AutoApprove || want == approval.ApprovedByHost), where)
						if slices.Contains(ask[profile], d.ID) && want != approval.DenyRunMode {
							Expect(got.RequestID).To(Equal("run-1:call-1"), where)
						} else {
							Expect(got.RequestID).To(BeEmpty(), where)
						}
						cells++
					}
				}
			}
		}
		Expect(cells).To(Equal(21 * 3 * 3 * 5))
	})

	It("treats project.validate as high risk", func() {
		d := tool("project.validate")
		Expect(d.Risk).To(Equal("high"))
		Expect(approval.Requires(approval.Balanced, d)).To(BeTrue())
		Expect(approval.Requires(approval.TrustedWorkspace, d)).To(BeFalse())
	})

	It("uses test facts that agree with the core catalog package", func() {
		for _, c := range catalog.Core() {
			f := tool(c.ID)
			Expect(c.Risk).To(Equal(f.Risk), c.ID)
			Expect(c.Mutability).To(Equal(f.Mutability), c.ID)
			Expect(c.Transport).To(Equal(f.Transport), c.ID)
			Expect(c.ModelName).To(Equal(f.ModelName), c.ID)
			Expect(slices.Clone(c.Permissions)).To(ConsistOf(f.Permissions), c.ID)
		}
	})
})
