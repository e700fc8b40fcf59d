package lab_test

import (
	"github.com/galaxy-stack/conform/hosts/proxy"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/lab"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("AbsentCapability", func() {
	all := wire.HostCapabilities{Store: true, Trace: true, Spill: true, Fingerprint: true}
	faults := []proxy.Rule{
		{Method: "tool/execute", Action: proxy.ActionCorruptResult},
		{Method: "workspace/fingerprint", Action: proxy.ActionFail},
		{Method: "store/put", Action: proxy.ActionDropAck},
		{Method: "trace/flush", Action: proxy.ActionFail},
	}

	It("finds no reason when the host declares every capability the faults aim at", func() {
		i, reason := lab.AbsentCapability(all, faults)
		Expect(i).To(Equal(-1))
		Expect(reason).To(BeEmpty())
	})

	It("names the first fault aimed at each capability the host declares absent", func() {
		for _, c := range []struct {
			edit func(*wire.HostCapabilities)
			at   int
			name string
		}{
			{func(c *wire.HostCapabilities) { c.Fingerprint = false }, 1, "fingerprint"},
			{func(c *wire.HostCapabilities) { c.Store = false }, 2, "store"},
			{func(c *wire.HostCapabilities) { c.Trace = false }, 3, "trace"},
		} {
			caps := all
			c.edit(&caps)
			i, reason := lab.AbsentCapability(caps, faults)
			Expect(i).To(Equal(c.at), c.name)
			Expect(reason).To(ContainSubstring("declares capabilities."+c.name+" false"), c.name)
			Expect(reason).To(ContainSubstring("into "+faults[c.at].Method), c.name)
		}
	})

	It("never makes a tool fault not applicable: tools are not capabilities", func() {
		i, _ := lab.AbsentCapability(wire.HostCapabilities{}, faults[:1])
		Expect(i).To(Equal(-1))
	})
})
