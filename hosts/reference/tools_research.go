package reference

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/research"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// newResearch builds the research adapter of opts (the environment's
// configuration when opts.Research is nil); nil when it is disabled.
func newResearch(opts Options) (*research.Client, error) {
	cfg, err := researchConfig(opts)
	if err != nil {
		return nil, err
	}
	return research.New(cfg)
}

// researchConfig is the research configuration of opts.
func researchConfig(opts Options) (research.Config, error) {
	var cfg research.Config
	if opts.Research != nil {
		cfg = *opts.Research
	} else {
		var err error
		if cfg, err = research.ConfigFromEnv(os.Getenv); err != nil {
			return research.Config{}, err
		}
	}
	if opts.Faults.ResearchPrivateHosts {
		cfg.AllowPrivateHosts = true
	}
	cfg.Faults = opts.Faults.Research
	return cfg, nil
}

// allowLoopback rebuilds the session's research adapter with the loopback
// allowance of initialize (research.allowLoopback): the harness's own
// sources, and nothing else that is not public.
func (h *Host) allowLoopback(p wire.InitializeParams) error {
	if h.research == nil || p.Research == nil || len(p.Research.AllowLoopback) == 0 {
		return nil
	}
	cfg, err := researchConfig(h.opts)
	if err != nil {
		return err
	}
	cfg.AllowLoopback = append([]string(nil), p.Research.AllowLoopback...)
	c, err := research.New(cfg)
	if err != nil {
		return invalidParams("research: %v", err)
	}
	h.research = c
	return nil
}

// researchLimits are the output limits research outputs are fitted to.
func (s *session) researchLimits(c *call) research.Limits {
	return research.Limits{MaxBytes: c.desc.MaxOutputBytes, MaxTokens: c.desc.MaxOutputTokens}
}

// retrievedAt stamps research provenance with the host clock, in the
// form of JavaScript's toISOString.
func (s *session) retrievedAt() string {
	return s.now().UTC().Format("2006-01-02T15:04:05.000Z")
}

// researchFailure turns an adapter failure into a typed tool error.
func researchFailure(err error) error {
	var re *research.Error
	if !errors.As(err, &re) {
		return &toolError{Code: "UNAVAILABLE", Message: "The research adapter failed.", Retryable: true}
	}
	te := &toolError{Code: re.Code, Message: re.Message, Retryable: re.Retryable}
	if re.Status != 0 {
		st := re.Status
		te.Status = &st
	}
	return te
}

// fetchURL is research.fetch (fetch_url): one public source, bounded and
// attributed, attested as a fetch research source.
func fetchURL(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		URL      string `json:"url"`
		MaxBytes int    `json:"maxBytes"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	page, ok := s.checkpointEvidence(c.p.Context.RunID, a.URL)
	var err error
	if !ok {
		page, err = s.fetchPage(ctx, a.URL, a.MaxBytes)
	}
	if err != nil {
		return outcome{}, researchFailure(err)
	}
	out, err := research.ShapeFetch(page, s.retrievedAt(), s.researchLimits(c))
	if err != nil {
		return outcome{}, researchFailure(err)
	}
	trust := "external"
	if s.faults.ResearchTruncationUnmarked {
		out.Truncated = false
	}
	if s.faults.ResearchTrustedContent {
		trustedOutput(&out)
		trust = "trusted"
	}
	summary := fmt.Sprintf("Fetched bounded public source %s.", out.URL)
	if out.Truncated {
		summary = fmt.Sprintf("Fetched bounded public source %s (truncated).", out.URL)
	}
	eff := &port.Effects{ResearchSources: []port.ResearchSource{research.FetchSource(out)}}
	s.inspectedSources(c.desc.ID, eff, out.URL)
	if s.faults.ResearchPageEffects {
		claimedEffects(out.Content, eff)
	}
	return outcome{Output: out, Summary: summary, Trust: trust, Effects: eff}, nil
}

// fetchPage reads one source through the adapter; the research faults of
// the tool executor (a canned double, a durable or in-memory cache, a
// stale or empty answer for an unavailable source) act here.
func (s *session) fetchPage(ctx context.Context, rawURL string, maxBytes int) (research.Page, error) {
	if s.faults.ResearchUnlabelledDouble || s.faults.ResearchUndisclosedDouble {
		return cannedPage(rawURL), nil
	}
	if p, ok := s.rememberedPage(rawURL); ok {
		return p, nil
	}
	if s.faults.ResearchDurableCache {
		if p, ok := s.researchCache().get(rawURL); ok {
			return p, nil
		}
	}
	page, err := s.h.research.Fetch(ctx, rawURL, maxBytes)
	if err == nil && s.faults.ResearchDurableCache {
		s.researchCache().put(rawURL, page)
	}
	return s.fetchFaults(rawURL, page, err)
}

// searchWeb is research.search (search_web): one query to the configured
// endpoint, each hit attested as a search research source.
func searchWeb(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Query      string `json:"query"`
		MaxResults int    `json:"maxResults"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	hits, err := s.searchHits(ctx, a.Query, a.MaxResults)
	if err != nil {
		return outcome{}, researchFailure(err)
	}
	out := research.ShapeSearch(hits, s.retrievedAt(), s.researchLimits(c))
	s.searchHitFaults(&out)
	summary := fmt.Sprintf("Public research returned %d source(s).", len(out.Results))
	if out.Truncated {
		summary = fmt.Sprintf("Public research returned %d source(s) with bounded or filtered content.", len(out.Results))
	}
	eff := &port.Effects{ResearchSources: research.SearchSources(out)}
	for _, h := range out.Results {
		s.inspectedSources(c.desc.ID, eff, h.URL)
		if h.Snippet != nil && s.faults.ResearchSnippetEffects {
			claimedEffects(*h.Snippet, eff)
		}
	}
	return outcome{Output: out, Summary: summary, Trust: "external", Effects: eff}, nil
}

// searchHits queries the adapter; the ResearchCannedSearch fault answers
// fixed hits instead.
func (s *session) searchHits(ctx context.Context, query string, limit int) (research.Hits, error) {
	if s.faults.ResearchCannedSearch {
		return cannedHits(query), nil
	}
	return s.h.research.Search(ctx, query, limit)
}
