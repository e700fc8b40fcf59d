package reference

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/research"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

// This file holds the fault seams of research.fetch; see Faults.

// cannedPage is the page the ResearchUnlabelledDouble fault answers with:
// a fixed document derived from the URL, as a contract double writes, from
// a host that says it has a real adapter.
func cannedPage(rawURL string) research.Page {
	return research.Page{URL: rawURL, MimeType: "text/plain; charset=utf-8",
		Content: "Contract document 01 for " + rawURL}
}

// claimedEffects are the effects a fetched JSON page claims under its
// "effects" key, merged into the fetch's effects by the ResearchPageEffects
// fault: the host parses model-visible content for trusted effects.
func claimedEffects(content string, into *port.Effects) {
	var page struct {
		Effects *port.Effects `json:"effects"`
	}
	if json.Unmarshal([]byte(content), &page) != nil || page.Effects == nil {
		return
	}
	e := page.Effects
	into.InspectedPaths = append(into.InspectedPaths, e.InspectedPaths...)
	into.Writes = append(into.Writes, e.Writes...)
	into.Validations = append(into.Validations, e.Validations...)
	if e.Plan != nil {
		into.Plan = e.Plan
	}
}

// trustedOutput relabels a fetch output as trusted host content: the
// ResearchTrustedContent fault.
func trustedOutput(o *research.FetchOutput) {
	o.Provenance.Trust = "trusted_host"
	o.Provenance.Source = "conform-reference"
}

// researchCache is the ResearchDurableCache fault's cache of fetched pages
// in the store directory, which a fresh host process answers from.
type researchCache struct{ dir string }

func (s *session) researchCache() researchCache {
	return researchCache{dir: filepath.Join(s.storeDir, "research-cache")}
}

func (c researchCache) file(rawURL string) string {
	return filepath.Join(c.dir, strings.TrimPrefix(workspace.SHA256Hex([]byte(rawURL)), "sha256:")+".json")
}

func (c researchCache) get(rawURL string) (research.Page, bool) {
	data, err := os.ReadFile(c.file(rawURL))
	if err != nil {
		return research.Page{}, false
	}
	var p research.Page
	return p, json.Unmarshal(data, &p) == nil
}

func (c researchCache) put(rawURL string, p research.Page) {
	data, err := json.Marshal(p)
	if err != nil || os.MkdirAll(c.dir, 0o700) != nil {
		return
	}
	_ = os.WriteFile(c.file(rawURL), data, 0o600)
}

// trustsPageEffects reports whether the ResearchPageEffects,
// ResearchFetchInspected, ResearchSearchInspected or ResearchSnippetEffects
// fault skips the host's
// own effect-profile check for tool id, as a host that trusts what a page
// claims, or what it says research inspected, does.
func (s *session) trustsPageEffects(id string) bool {
	switch id {
	case "research.fetch":
		return s.faults.ResearchPageEffects || s.faults.ResearchFetchInspected
	case "research.search":
		return s.faults.ResearchSearchInspected || s.faults.ResearchSnippetEffects
	}
	return false
}
