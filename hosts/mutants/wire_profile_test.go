package mutants_test

import (
	"context"

	"github.com/galaxy-stack/conform/core/effects"
	. "github.com/onsi/gomega"
)

// The wire-level spec of the mutant that answers tools/list with a copy of
// the effect profile kept in the host (T3), which item 9 catches: the
// core's tool-set check refuses it before the first model request.
var _ = addSpecs(map[string]func(name string){
	"copied-effect-profile": func(name string) {
		ref, mut := both(name, setup{})
		refSet, err := ref.client.ToolSet(context.Background())
		Expect(err).NotTo(HaveOccurred())
		Expect(refSet.EffectCapabilities["workspace.write"]).To(ContainElement("state_version"))
		_, err = effects.CheckToolSet(refSet)
		Expect(err).NotTo(HaveOccurred(), "the reference host's tool set passes the core's check")
		mutSet, err := mut.client.ToolSet(context.Background())
		Expect(err).NotTo(HaveOccurred())
		Expect(mutSet.EffectCapabilities["workspace.write"]).NotTo(ContainElement("state_version"), "the copied profile lacks state_version")
		_, err = effects.CheckToolSet(mutSet)
		Expect(err).To(MatchError(ContainSubstring("workspace.write")), "the core refuses the copied profile, naming the tool")
	},
})
