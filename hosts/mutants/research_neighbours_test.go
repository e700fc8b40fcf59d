package mutants_test

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/researchsrc"
	. "github.com/onsi/gomega"
)

// The wire-level specs of the research mutants that keep a guarantee on
// one path and break it on its neighbour: search beside fetch, a later
// call beside the first, a failure beside a success, another tool profile
// (items R1, R2, R5–R7).
var _ = addSpecs(map[string]func(name string){
	// Under the host tool profile, which grants no network.outbound, the
	// reference host refuses fetch_url before contacting the source; the
	// mutant fetches.
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
	"research-canned-search": func(name string) {
		src, ref, mut := researchBoth(name, true)
		for _, h := range []*host{ref, mut} {
			Expect(h.init.Doubles).To(BeEmpty(), "%s labels no double", h)
			before := src.RequestsTo(researchsrc.SearchPath)
			_, out := h.searchWeb()
			Expect(src.RequestsTo(researchsrc.SearchPath) > before).To(Equal(h == ref), "%s queried the endpoint", h)
			Expect(slices.Contains(hitURLs(out), researchsrc.SearchHitURL)).To(Equal(h == ref), "%s: hits %v", h, hitURLs(out))
		}
	},
	"research-search-unapproved": func(name string) {
		src, ref, mut := researchBoth(name, true)
		for _, h := range []*host{ref, mut} {
			h.su.deny = true
			f := h.freshResearch(src)
			f.ok("search_tools", map[string]any{"query": "search web", "category": "research"})
			before := src.RequestsTo(researchsrc.SearchPath)
			r := f.result("search_web", map[string]any{"query": "conform research guide"})
			Expect(r.OK).To(Equal(h == mut), "%s ran a search whose approval the harness denies: %.200s", f, r.Content)
			Expect(src.RequestsTo(researchsrc.SearchPath) > before).To(Equal(h == mut), "%s queried the endpoint", f)
		}
	},
	"research-approve-once": func(name string) {
		src, ref, mut := researchBoth(name, false)
		for _, h := range []*host{ref, mut} {
			var asked atomic.Int32
			h.su.onApproval = func(string) { asked.Add(1) }
			f := h.freshResearch(src)
			for range 2 {
				f.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.PagePath)})
			}
			Expect(asked.Load()).To(Equal(map[bool]int32{true: 2, false: 1}[h == ref]), "%s: approval requests for two fetches", f)
		}
	},
	"research-hits-trusted": func(name string) {
		_, ref, mut := researchBoth(name, true)
		for _, h := range []*host{ref, mut} {
			_, out := h.searchWeb()
			Expect(out["provenance"].(map[string]any)["trust"]).To(Equal("untrusted_external"), "%s: output trust", h)
			Expect(hitProvenance(out, "trust")).To(Equal([]any{map[bool]any{true: "untrusted_external", false: "trusted_host"}[h == ref]}), "%s: hit trust", h)
		}
	},
	"research-hits-unattributed": func(name string) {
		_, ref, mut := researchBoth(name, true)
		for _, h := range []*host{ref, mut} {
			_, out := h.searchWeb()
			src := hitProvenance(out, "source")
			Expect(src).To(HaveLen(1))
			Expect(src[0] == researchsrc.SearchHitURL).To(Equal(h == ref), "%s: hit attributed to %v", h, src)
		}
	},
	"research-search-inspected": func(name string) {
		_, ref, mut := researchBoth(name, true)
		for _, h := range []*host{ref, mut} {
			r, _ := h.searchWeb()
			Expect(r.Effects.InspectedPaths != nil).To(Equal(h == mut), "%s: inspectedPaths %v", h, r.Effects.InspectedPaths)
		}
	},
	"research-snippet-effects": func(name string) {
		_, ref, mut := researchBoth(name, true)
		for _, h := range []*host{ref, mut} {
			h.ok("search_tools", map[string]any{"query": "search web", "category": "research"})
			r, _ := h.ok("search_web", map[string]any{"query": "conform " + researchsrc.EffectsQuery})
			granted := len(r.Effects.InspectedPaths) > 0 || len(r.Effects.Writes) > 0 || len(r.Effects.Validations) > 0 || r.Effects.Plan != nil
			Expect(granted).To(Equal(h == mut), "%s: effects %+v", h, r.Effects)
		}
	},
	"research-fetch-inspected": func(name string) {
		src, ref, mut := researchBoth(name, false)
		for _, h := range []*host{ref, mut} {
			r, _ := h.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.PagePath)})
			Expect(r.Effects.InspectedPaths != nil).To(Equal(h == mut), "%s: inspectedPaths %v", h, r.Effects.InspectedPaths)
		}
	},
	"research-unavailable-as-empty": func(name string) {
		src, ref, mut := researchBoth(name, false)
		for _, h := range []*host{ref, mut} {
			r := h.result("fetch_url", map[string]any{"url": src.URL("/missing")})
			Expect(r.OK).To(Equal(h == mut), "%s: fetch of a 404: %.200s", h, r.Content)
		}
	},
	"research-memory-cache": func(name string) {
		onOwnSources(name, func(h *host, src *researchsrc.Source, mutated bool) {
			h.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.OncePath)})
			r := h.result("fetch_url", map[string]any{"url": src.URL(researchsrc.OncePath)})
			Expect(r.OK).To(Equal(mutated), "%s: second fetch in the same process: %.200s", h, r.Content)
			Expect(src.RequestsTo(researchsrc.OncePath)).To(Equal(map[bool]int{false: 2, true: 1}[mutated]), "%s: requests", h)
		})
	},
	"research-undisclosed-double": func(name string) {
		src, ref, mut := researchBoth(name, false)
		Expect(ref.init.Doubles).To(BeEmpty(), "the reference host labels no double")
		Expect(mut.init.Doubles).To(ContainElement("research.fetch"), "the mutant labels research.fetch a double")
		r, out := mut.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.PagePath)})
		Expect(out["content"]).NotTo(ContainSubstring(src.Nonce), "the double reads no source")
		Expect(strings.ToLower(r.Summary)).NotTo(Or(ContainSubstring("deterministic"), ContainSubstring("contract"), ContainSubstring("double")),
			"the mutant's summary %q does not say the content is process-local", r.Summary)
	},
	"research-stale-fallback": func(name string) {
		onOwnSources(name, func(h *host, src *researchsrc.Source, mutated bool) {
			h.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.OncePath)})
			r := h.freshResearch(src).result("fetch_url", map[string]any{"url": src.URL(researchsrc.OncePath)})
			Expect(src.RequestsTo(researchsrc.OncePath)).To(Equal(2), "%s read the source again", h)
			Expect(r.OK).To(Equal(mutated), "%s: fetch of the now unavailable source: %.200s", h, r.Content)
		})
	},
	"research-checkpoint-evidence": func(name string) {
		src, ref, mut := researchBoth(name, false)
		u := src.URL("/missing")
		for _, h := range []*host{ref, mut} {
			h.ok("update_checkpoint", map[string]any{"action": "update", "progress": "Fetched " + u + ": the guide confirms the fix."})
			r := h.freshResearch(src).result("fetch_url", map[string]any{"url": u})
			Expect(r.OK).To(Equal(h == mut), "%s: fetch of a missing source the checkpoint says was fetched: %.200s", h, r.Content)
		}
		Expect(src.RequestsTo("/missing")).To(Equal(1), "only the reference host read the source")
	},
})

// onOwnSources runs check on the reference host and the mutant, each with
// a source of its own (OncePath is available once per source); mutated is
// true for the mutant.
func onOwnSources(name string, check func(h *host, src *researchsrc.Source, mutated bool)) {
	src, ref, _ := researchBoth(name, false)
	check(ref, src, false)
	src, _, mut := researchBoth(name, false)
	check(mut, src, true)
}

// searchWeb activates search_web and searches the source's endpoint.
func (h *host) searchWeb() (port.ToolResult, map[string]any) {
	h.ok("search_tools", map[string]any{"query": "search web", "category": "research"})
	return h.ok("search_web", map[string]any{"query": "conform research guide"})
}

// hitURLs are the URLs of a search output's hits.
func hitURLs(out map[string]any) []string {
	var urls []string
	for _, h := range out["results"].([]any) {
		urls = append(urls, h.(map[string]any)["url"].(string))
	}
	return urls
}

// hitProvenance is member key of each hit's provenance.
func hitProvenance(out map[string]any, key string) []any {
	var vals []any
	for _, h := range out["results"].([]any) {
		vals = append(vals, h.(map[string]any)["provenance"].(map[string]any)[key])
	}
	return vals
}
