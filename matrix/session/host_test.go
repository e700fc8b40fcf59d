package session

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/wire"
)

var _ = Describe("the harness's approval answers", func() {
	decisions := map[string]string{"command.run": "allow", "validate_project": "allow", "project.validate": "deny"}
	ask := func(canonical, name string) wire.ApprovalDecision {
		h := &Host{}
		d, err := h.approver(decisions)(context.Background(), wire.ApprovalParams{CanonicalToolID: canonical, ModelName: name})
		Expect(err).NotTo(HaveOccurred())
		Expect(h.Approvals()).To(ConsistOf(Approval{CanonicalToolID: canonical, ModelName: name, Approved: d.Approved}))
		Expect(d.Scope).To(Equal("once"))
		return d
	}

	It("allows what the scenario allows by canonical ID", func() {
		d := ask("command.run", "run_command")
		Expect(d.Approved).To(BeTrue())
		Expect(d.Reason).To(Equal("Fixture explicitly approved command.run."))
	})

	It("looks up the canonical ID before the model-facing name", func() {
		Expect(ask("project.validate", "validate_project").Approved).To(BeFalse())
	})

	It("denies what the scenario does not decide", func() {
		d := ask("workspace.write", "write_file")
		Expect(d.Approved).To(BeFalse())
		Expect(d.Reason).To(Equal("Fixture denied workspace.write; missing decisions fail closed."))
	})
})

var _ = Describe("the initialize parameters", func() {
	It("applies the defaults and leaves out the tools the session withholds", func() {
		p := hostParams(HostConfig{Workspace: "/w", StoreDir: "/s", WithoutTools: []string{"git.exec"}})
		Expect(p.Mode).To(Equal("auto"))
		Expect(p.ApprovalProfile).To(Equal("balanced"))
		Expect(p.Containment).To(Equal(wire.ContainmentBestEffort))
		Expect(p.ToolProfile).To(Equal(wire.ToolProfileHost))
		var ids []string
		for _, d := range p.Catalog.Tools {
			ids = append(ids, d.ID)
		}
		Expect(ids).NotTo(ContainElement("git.exec"))
		Expect(ids).To(ContainElement("workspace.read"))
	})
})
