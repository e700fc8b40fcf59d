package mutants_test

import (
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/researchsrc"
	. "github.com/onsi/gomega"
)

// The wire-level spec of the mutant that lets research run without the
// network.outbound permission (R2), which item R2 catches: under the host
// tool profile, which grants none, the reference host refuses fetch_url
// before contacting the source; the mutant fetches.
var _ = addSpecs(map[string]func(name string){
	"research-without-outbound": func(name string) {
		src, ref, mut := researchBoth(name, false)
		for _, h := range []*host{ref, mut} {
			h.su.params = func(p *wire.InitializeParams) {
				p.ToolProfile = wire.ToolProfileHost
				p.Research = &wire.ResearchParams{AllowLoopback: []string{src.Addr()}}
			}
			f := h.freshResearch(src)
			before := len(src.Requests())
			r := f.result("fetch_url", map[string]any{"url": src.URL(researchsrc.PagePath)})
			Expect(r.OK).To(Equal(h == mut), "%s answered fetch_url under the host profile: %.200s", f, r.Content)
			Expect(len(src.Requests()) > before).To(Equal(h == mut), "%s contacted the source", f)
		}
	},
})
