package effects_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/internal/goldenfile"
	"github.com/galaxy-stack/conform/internal/toolfacts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func renderProfile() string {
	var b strings.Builder
	b.WriteString("# Core tool effect profile (CONTRACTS §7.2, §7.3).\n")
	b.WriteString("# Rewrite with: go test ./core/effects -run TestEffects -update\n")
	fmt.Fprintf(&b, "version: %s\n", effects.ProfileVersion)
	fmt.Fprintf(&b, "capabilities: %s\n", strings.Join(effects.Capabilities(), ", "))
	fmt.Fprintf(&b, "write-capable: %s\n", strings.Join(effects.WriteCapableTools(), ", "))
	for _, e := range effects.CoreEntries() {
		fmt.Fprintf(&b, "%s: %s | %s\n", e.ID, strings.Join(e.Capabilities, ", "), e.Boundary)
	}
	return b.String()
}

var _ = Describe("core profile", func() {
	It("matches the golden table of CONTRACTS §7.3", func() {
		path := filepath.Join("testdata", "profile.golden")
		Expect(goldenfile.Check(path, renderProfile(), "go test ./core/effects -update")).To(Succeed())
	})

	It("has version 1.1.0 and the ten sorted capabilities", func() {
		Expect(effects.ProfileVersion).To(Equal("1.1.0"))
		caps := effects.Capabilities()
		Expect(caps).To(HaveLen(10))
		Expect(slices.IsSorted(caps)).To(BeTrue())
		Expect(effects.IsCapability("research")).To(BeTrue())
		Expect(effects.IsCapability("execute")).To(BeFalse())
	})

	It("covers exactly the 21 catalog IDs in catalog order", func() {
		ids := effects.CoreToolIDs()
		want := make([]string, 0, 21)
		for _, t := range toolfacts.All() {
			want = append(want, t.ID)
		}
		Expect(ids).To(Equal(want))
		Expect(effects.CoreProfile()).To(HaveLen(21))
	})

	It("allows approval for every tool and criterion effects for none", func() {
		for id, caps := range effects.CoreProfile() {
			Expect(caps).To(ContainElement("approval"), id)
			Expect(caps).NotTo(ContainElement("criterion_satisfy"), id)
			Expect(caps).NotTo(ContainElement("criterion_waive"), id)
			Expect(slices.IsSorted(caps)).To(BeTrue(), id)
			Expect(slices.Compact(slices.Clone(caps))).To(Equal(caps), id)
		}
	})

	It("returns copies the caller cannot use to change the profile", func() {
		p := effects.CoreProfile()
		p["workspace.read"][0] = "write"
		delete(p, "git.exec")
		caps, ok := effects.CoreCapabilities("workspace.read")
		Expect(ok).To(BeTrue())
		Expect(caps).To(Equal([]string{"approval", "inspect"}))
		Expect(effects.CoreProfile()).To(HaveKey("git.exec"))
		entries := effects.CoreEntries()
		entries[0].Capabilities[0] = "x"
		Expect(effects.CoreEntries()[0].Capabilities[0]).To(Equal("approval"))
	})

	It("answers for non-core tools", func() {
		_, ok := effects.CoreCapabilities("mcp.tool")
		Expect(ok).To(BeFalse())
		Expect(effects.IsCoreTool("mcp.tool")).To(BeFalse())
		Expect(effects.IsCoreTool("command.run")).To(BeTrue())
	})

	It("is valid for the catalog of CONTRACTS §6.2", func() {
		Expect(effects.ValidateProfile(effects.ProfileInput{Tools: refs(toolfacts.All())})).To(BeEmpty())
		Expect(effects.AssertProfile(effects.ProfileInput{Tools: refs(toolfacts.All())})).To(Succeed())
	})

	It("agrees with the core catalog package", func() {
		// The default input is catalog.Core(). Every catalog tool must be in
		// the profile with the model name of CONTRACTS §6.2; profile tools
		// the catalog does not hold yet are the only accepted issues.
		facts := map[string]string{}
		for _, t := range toolfacts.All() {
			facts[t.ID] = t.ModelName
		}
		inCatalog := map[string]bool{}
		for _, d := range catalog.Core() {
			Expect(facts).To(HaveKeyWithValue(d.ID, d.ModelName))
			inCatalog[d.ID] = true
		}
		var want []string
		for _, id := range effects.CoreToolIDs() {
			if !inCatalog[id] {
				want = append(want, fmt.Sprintf("Effect profile contains unknown core tool %s.", id))
			}
		}
		Expect(effects.ValidateProfile(effects.ProfileInput{})).To(Equal(want))
	})
})
