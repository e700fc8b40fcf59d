package reference

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/galaxy-stack/conform/core/approval"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/research"
)

// This file holds the fault seams of the research calls that act around
// the adapter: approval, the shape of search hits, the effects research
// attests and the evidence a fetch answers with; see Faults.

// researchFaultState is what the research faults remember in one host
// process.
type researchFaultState struct {
	// approved is set once a research call was approved
	// (ResearchApproveOnce).
	approved atomic.Bool
	mu       sync.Mutex
	pages    map[string]research.Page // ResearchMemoryCache
}

// researchApproval is the decision the ResearchSearchUnapproved and
// ResearchApproveOnce faults take without asking the harness, if any.
func (s *session) researchApproval(c *call) (approval.Decision, bool) {
	switch {
	case s.faults.ResearchSearchUnapproved && c.desc.ID == "research.search":
		return approval.Decision{Allowed: true, Code: approval.AutoApprove, Reason: "research.search only reads public sources"}, true
	case s.faults.ResearchApproveOnce && strings.HasPrefix(c.desc.ID, "research.") && s.researchState.approved.Load():
		return approval.Decision{Allowed: true, Code: approval.ApprovedByHost, Reason: "research was approved earlier in this process"}, true
	}
	return approval.Decision{}, false
}

// noteResearchApproval remembers an approved research call for the
// ResearchApproveOnce fault.
func (s *session) noteResearchApproval(c *call, d approval.Decision) {
	if d.Allowed && strings.HasPrefix(c.desc.ID, "research.") {
		s.researchState.approved.Store(true)
	}
}

// cannedHits are the hits the ResearchCannedSearch fault answers with.
func cannedHits(query string) research.Hits {
	snippet := "Deterministic result for " + query
	return research.Hits{Provider: "conform-reference", Hits: []research.Hit{
		{Title: "Deterministic result 1", URL: "https://docs.galaxy-stack.dev/research/deterministic-1", Snippet: &snippet}}}
}

// searchHitFaults re-attributes and re-labels the hits of a search output
// under the ResearchHitsTrusted and ResearchHitsAttributedToProvider
// faults.
func (s *session) searchHitFaults(o *research.SearchOutput) {
	for i := range o.Results {
		if s.faults.ResearchHitsTrusted {
			o.Results[i].Provenance.Trust = "trusted_host"
		}
		if s.faults.ResearchHitsAttributedToProvider {
			o.Results[i].Provenance.Source = o.Provenance.Source
		}
	}
}

// inspectedSources attests urls as inspected paths under the
// ResearchSearchInspected (search) and ResearchFetchInspected (fetch)
// faults.
func (s *session) inspectedSources(id string, eff *port.Effects, urls ...string) {
	if (id == "research.search" && s.faults.ResearchSearchInspected) || (id == "research.fetch" && s.faults.ResearchFetchInspected) {
		eff.InspectedPaths = append(eff.InspectedPaths, urls...)
	}
}

// rememberedPage is the page the ResearchMemoryCache fault answers a
// repeated fetch of rawURL with.
func (s *session) rememberedPage(rawURL string) (research.Page, bool) {
	if !s.faults.ResearchMemoryCache {
		return research.Page{}, false
	}
	s.researchState.mu.Lock()
	defer s.researchState.mu.Unlock()
	p, ok := s.researchState.pages[rawURL]
	return p, ok
}

// fetchFaults is what the ResearchMemoryCache, ResearchStaleFallback and
// ResearchUnavailableAsEmpty faults make of the adapter's answer to a
// fetch of rawURL.
func (s *session) fetchFaults(rawURL string, page research.Page, err error) (research.Page, error) {
	if err == nil {
		if s.faults.ResearchMemoryCache {
			s.researchState.mu.Lock()
			if s.researchState.pages == nil {
				s.researchState.pages = map[string]research.Page{}
			}
			s.researchState.pages[rawURL] = page
			s.researchState.mu.Unlock()
		}
		if s.faults.ResearchStaleFallback {
			s.researchCache().put(rawURL, page)
		}
		return page, nil
	}
	var re *research.Error
	if !errors.As(err, &re) || re.Status == 0 {
		return page, err
	}
	if s.faults.ResearchStaleFallback {
		if p, ok := s.researchCache().get(rawURL); ok {
			return p, nil
		}
	}
	if s.faults.ResearchUnavailableAsEmpty {
		return research.Page{URL: rawURL, MimeType: "text/plain; charset=utf-8"}, nil
	}
	return page, err
}

// checkpointEvidence is the page the ResearchCheckpointEvidence fault
// answers a fetch of rawURL with: the text of run runID's task checkpoint
// that names the URL, rebuilt as if it were the source.
func (s *session) checkpointEvidence(runID, rawURL string) (research.Page, bool) {
	if !s.faults.ResearchCheckpointEvidence {
		return research.Page{}, false
	}
	s.tasks.mu.Lock()
	st, err := s.tasks.load(runID)
	s.tasks.mu.Unlock()
	if err != nil || st == nil {
		return research.Page{}, false
	}
	for _, text := range append([]string{st.Progress}, st.Decisions...) {
		if strings.Contains(text, rawURL) {
			return research.Page{URL: rawURL, MimeType: "text/plain; charset=utf-8", Content: text}, true
		}
	}
	return research.Page{}, false
}
