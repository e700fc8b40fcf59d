package items

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/internal/researchsrc"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/kit"
	"github.com/galaxy-stack/conform/matrix/oracle"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The research items (R1–R7) check the "Public research" host guarantees.
// Their scenarios run through the core with the full_contract profile, so
// they apply to hosts that offer its nine tools (the doubles host); their
// Go specs drive a host's own research adapter directly against a loopback
// source the harness serves (internal/researchsrc), which initialize
// allows explicitly (research.allowLoopback), so they apply to hosts with a
// real adapter (the reference host). See fixtures/matrix/R*-*/CHECKS.md.

// evidenceRemembered reports whether a research result's summary says its
// evidence is remembered from an earlier call rather than read now. The
// contract does not fix the words, so any of the usual ones will do.
func evidenceRemembered(summary string) bool {
	s := strings.ToLower(summary)
	for _, w := range []string{"cache", "remembered", "earlier", "previous", "process-local", "this process", "memory", "reused", "stored", "not re-read", "not fetched again", "already fetched"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// doubleDisclosed reports whether a research result's summary says it is
// deterministic contract content rather than an observed source.
func doubleDisclosed(summary string) bool {
	s := strings.ToLower(summary)
	return strings.Contains(s, "deterministic") || strings.Contains(s, "contract") || strings.Contains(s, "double")
}

// eachResearchResult declares the item's scenario file: check runs on each
// of its research results and asserts the contract sentences keys.
func eachResearchResult(c *kit.TestContext, file, keys string, check func(o *kit.Outcome, r oracle.ToolResult)) {
	c.Scenarios(map[string]kit.Case{file: kit.On(keys, func(o *kit.Outcome) {
		for _, r := range o.ResearchResults() {
			check(o, r)
		}
	})})
}

// R1: advertised only with a real adapter or a labelled double.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 101, Name: "research-advertised", Area: "research", Title: "research tools are advertised only with a real adapter or a labelled contract double",
	Scope: matrix.ScopeHost, Tools: []string{"research.fetch", "research.search"}, Guarantees: []string{"R1"},
	Contract: "hosts/wire/tools/research.fetch.md#summary", Guarantee: "A host MUST advertise research.fetch and research.search only when a real adapter serves them or initialize labels them as deterministic doubles, and a real adapter MUST read only public sources unless initialize allows a loopback source.",
}, func(c *kit.TestContext) {
	eachResearchResult(c, "doubles-labelled.json", "R1 LR1", func(o *kit.Outcome, r oracle.ToolResult) {
		if strings.Contains(r.Content, "Contract document") || strings.Contains(r.Content, "Deterministic result") {
			Expect(o.Doubles).To(ContainElement(r.CanonicalToolID), "%s: %s answered fixed contract content but initialize does not list it in doubles; a host labels every deterministic double", o.File, r.CanonicalToolID)
		}
	})

	c.It("a research.fetch that is not labelled a double reads the source it is given", "R1 LR1", func() {
		src, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true})
		r := s.Fetch(researchsrc.PagePath, nil)
		Expect(r.OK).To(BeTrue(), "fetch_url of the harness's allowed loopback page failed: %s", r.Content)
		Expect(src.RequestsTo(researchsrc.PagePath)).To(BeNumerically(">=", 1),
			"fetch_url answered without requesting the page: initialize lists no research double, so a real adapter must read the source")
		Expect(r.Content).To(ContainSubstring(src.Nonce),
			"fetch_url answered content that is not the page's (%.200q); a host whose research is not a labelled double returns what the source served", r.Content)
	})

	c.It("without the allowance, and beyond it, loopback sources are refused and never contacted", "R1 LR1", func() {
		kit.NeedResearchFetch(c)
		src, other := kit.NewResearchSource(""), kit.NewResearchSource("")
		plain := kit.StartResearch(c, src, kit.ResearchOptions{})
		r := plain.Result("fetch_url", map[string]any{"url": src.URL(researchsrc.PagePath)})
		Expect(r.OK).To(BeFalse(), "fetch_url of a loopback URL succeeded without research.allowLoopback: %.200q; a conformant host fetches public hosts only", r.Content)
		Expect(src.RequestsTo(researchsrc.PagePath)).To(BeZero(), "the host contacted a loopback source it was not allowed to read")

		allowed := kit.StartResearch(c, src, kit.ResearchOptions{Allow: true})
		for _, u := range []string{other.URL(researchsrc.PagePath), strings.Replace(src.URL(researchsrc.PagePath), "127.0.0.1", "localhost", 1)} {
			r := allowed.Result("fetch_url", map[string]any{"url": u})
			Expect(r.OK).To(BeFalse(), "fetch_url of %s succeeded although initialize allowed only %s: %.200q; the allowance names exact addresses", u, src.Addr(), r.Content)
		}
		Expect(other.Requests()).To(BeEmpty(), "the host contacted a loopback source outside its allowance")
	})

	// A host whose fetch is real but whose search answers fixed hits
	// (catches research-canned-search).
	c.It("a research.search that is not labelled a double queries the search endpoint conform configures", "R1 LR1", func() {
		src, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true, Search: true})
		if slices.Contains(s.H.Init.Doubles, "research.search") {
			kit.NotApplicable("research.search is a labelled contract double (initialize doubles lists it): it reads no endpoint")
		}
		s.ActivateSearch()
		r := s.Result("search_web", map[string]any{"query": "conform research guide"})
		Expect(r.OK).To(BeTrue(), "search_web against the harness's endpoint failed: %s", r.Content)
		Expect(src.RequestsTo(researchsrc.SearchPath)).To(BeNumerically(">=", 1),
			"search_web answered without querying the configured endpoint: initialize lists no research double, so a real adapter must query it")
		Expect(hitURLs(r.Out)).To(ContainElement(researchsrc.SearchHitURL),
			"search_web answered hits %v, not the endpoint's one hit %s; a host whose search is not a labelled double returns what the provider answered", hitURLs(r.Out), researchsrc.SearchHitURL)
	})
})

// hitURLs are the URLs of a search output's hits.
func hitURLs(out map[string]any) []string {
	hits, _ := out["results"].([]any)
	urls := []string{}
	for _, h := range hits {
		if m, ok := h.(map[string]any); ok {
			u, _ := m["url"].(string)
			urls = append(urls, u)
		}
	}
	return urls
}

// R2: review_only keeps research, behind permission and approval.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 102, Name: "research-review-only", Area: "research", Title: "review_only keeps the research tools, with outbound permission and approval on every call",
	Scope: matrix.ScopeHost, Tools: []string{"research.fetch"}, Guarantees: []string{"R2", "T4"},
	Contract: "hosts/wire/CONTRACTS.md#mode-policy", Guarantee: "In review_only a host MUST keep research.fetch and research.search active, and MUST still refuse them without the network.outbound permission and ask for approval before every call, contacting no source when it is denied.",
}, func(c *kit.TestContext) {
	eachResearchResult(c, "review-only-denied.json", "R2 T4 LR2", func(o *kit.Outcome, r oracle.ToolResult) {
		Expect(r.OK).To(BeFalse(), "%s: %s ran although the harness denied its approval", o.File, r.CanonicalToolID)
	})

	c.It("in review_only research stays active, asks for approval first, and a denial contacts no source", "R2 T4 LR2", func() {
		double := kit.NeedResearchFetch(c)
		src := kit.NewResearchSource("")
		denied := kit.StartResearch(c, src, kit.ResearchOptions{Allow: true, Mode: "review_only", Deny: true})
		ctx, cancel := kit.ResearchCtx(c)
		defer cancel()
		set, err := denied.H.Client().ToolSet(ctx)
		Expect(err).NotTo(HaveOccurred(), "tools/list in review_only failed")
		var names []string
		for _, d := range set.Definitions {
			names = append(names, d.Function.Name)
		}
		Expect(names).To(ContainElement("fetch_url"), "review_only removed fetch_url (active: %v); review_only keeps the canonical research tools", names)
		Expect(names).NotTo(ContainElement("write_file"), "review_only kept write_file active")

		u := src.URL(researchsrc.PagePath)
		if double {
			u = "https://docs.galaxy-stack.dev/research/guide"
		}
		r := denied.Result("fetch_url", map[string]any{"url": u})
		Expect(r.OK).To(BeFalse(), "fetch_url ran in review_only although the harness denied its approval: %.200q", r.Content)
		Expect(src.Requests()).To(BeEmpty(), "the host contacted the source before (or despite) the denied approval; approval applies before every research call")
		if r.Effects != nil {
			Expect(r.Effects.ResearchSources).To(BeEmpty(), "a denied fetch attests research sources")
		}
		if !double {
			allowed := kit.StartResearch(c, src, kit.ResearchOptions{Allow: true, Mode: "review_only"})
			r = allowed.Fetch(researchsrc.PagePath, nil)
			Expect(r.OK).To(BeTrue(), "fetch_url in review_only with the approval granted failed: %s", r.Content)
		}
	})

	// Approval applies to search as it does to fetch (catches
	// research-search-unapproved).
	c.It("in review_only a research.search whose approval is denied queries no endpoint", "R2 T4 LR2", func() {
		kit.NeedResearchFetch(c)
		src := kit.NewResearchSource("")
		s := kit.StartResearch(c, src, kit.ResearchOptions{Allow: true, Search: true, Mode: "review_only", Deny: true})
		s.ActivateSearch()
		r := s.Result("search_web", map[string]any{"query": "conform research guide"})
		Expect(r.OK).To(BeFalse(), "search_web ran in review_only although the harness denied its approval: %.200q", r.Content)
		Expect(src.RequestsTo(researchsrc.SearchPath)).To(BeZero(), "the host queried the search endpoint despite the denied approval; approval applies before every research call, search as well as fetch")
		if r.Effects != nil {
			Expect(r.Effects.ResearchSources).To(BeEmpty(), "a denied search attests research sources")
		}
	})

	// An approval answered with scope "once" covers one call (catches
	// research-approve-once).
	c.It("every research call asks for its own approval, not only the first of a process", "R2 LR2", func() {
		double := kit.NeedResearchFetch(c)
		src := kit.NewResearchSource("")
		s := kit.StartResearch(c, src, kit.ResearchOptions{Allow: true})
		u := src.URL(researchsrc.PagePath)
		if double {
			u = researchsrc.SearchHitURL
		}
		var calls []string
		for range 2 {
			r := s.Result("fetch_url", map[string]any{"url": u})
			Expect(r.OK).To(BeTrue(), "fetch_url with every approval granted failed: %s", r.Content)
			calls = append(calls, r.CallID)
		}
		asked := s.ApprovalCalls("research.fetch")
		for _, id := range calls {
			Expect(asked).To(ContainElement(id), "the host ran research call %s without asking for its approval (it asked for %v); the harness granted earlier calls with scope \"once\", and approval applies to every research call", id, asked)
		}
	})

	c.It("without the network.outbound permission research reaches no source", "R2 LR2", func() {
		kit.FailRepro(c)
		if _, double := kit.ResearchBacking(c, "research.fetch"); double {
			kit.NotApplicable("research.fetch is a labelled contract double: it reaches no network with or without network.outbound, and the doubles host grants the full_contract permissions whatever the tool profile")
		}
		kit.NeedRealFetch(c)
		src := kit.NewResearchSource("")
		s := kit.StartResearch(c, src, kit.ResearchOptions{Allow: true, HostProfile: true})
		r := s.Result("fetch_url", map[string]any{"url": src.URL(researchsrc.PagePath)})
		Expect(r.OK).To(BeFalse(), "fetch_url ran under the host tool profile, which grants no network.outbound: %.200q", r.Content)
		Expect(src.Requests()).To(BeEmpty(), "the host contacted a source without the network.outbound permission")
	})
})

// R3: credentials only in the host's request headers.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 103, Name: "research-credentials", Area: "research", Title: "provider credentials stay in the host's request headers",
	Scope: matrix.ScopeHost, Tools: []string{"research.search", "research.fetch"}, Guarantees: []string{"R3", "S5"},
	Contract: "hosts/wire/tools/research.search.md#choices", Guarantee: "A provider credential MUST reach only the search endpoint, in a request header, and never a query string, a fetched source, a tool result, the host's store, trace or diagnostics.",
}, func(c *kit.TestContext) {
	eachResearchResult(c, "credential-in-url.json", "R3 S5 LR3", func(o *kit.Outcome, r oracle.ToolResult) {
		Expect(r.Content+r.Summary).NotTo(ContainSubstring(urlPassword), "%s: %s echoed the URL's password", o.File, r.CanonicalToolID)
	})

	c.It("a planted provider credential reaches only the search endpoint's headers", "R3 S5 LR3", func() {
		kit.FailRepro(c)
		kit.NeedRealFetch(c)
		const secret = "sk-conform-R3-7d3e91b04c"
		src := kit.NewResearchSource(secret)
		hdr, err := json.Marshal(map[string]string{"Authorization": "Bearer " + secret})
		Expect(err).NotTo(HaveOccurred(), "the harness cannot encode the fetch headers")
		s := kit.StartResearch(c, src, kit.ResearchOptions{Allow: true, Search: true, Env: []string{kit.ResearchHeadersEnv + "=" + string(hdr)}})
		s.ActivateSearch()
		r := s.Result("search_web", map[string]any{"query": "conform research guide"})
		Expect(r.OK).To(BeTrue(), "search_web against the harness's endpoint failed: %s", r.Content)
		s.Fetch(researchsrc.PagePath, nil)
		s.Fetch(researchsrc.EchoPath, nil)
		// So far no argument held the credential: nothing the host sent,
		// its approval requests included, may hold it.
		kit.NoSecret(secret, s.Received(), "the credential reached the harness in a host message (a tool result, summary, error or approval request); a conformant host redacts provider text and never echoes credentials")
		// Model-authored arguments carrying the credential must carry it
		// nowhere: not to the provider, not to a source, not into a result.
		s.Result("search_web", map[string]any{"query": "conform " + secret})
		s.Result("fetch_url", map[string]any{"url": src.URL(researchsrc.PagePath) + "?key=" + secret})

		for _, req := range src.Requests() {
			kit.NoSecret(secret, req.RawQuery, "the request for %s carried the credential in its query string; credentials belong in request headers", req.Path)
			if req.Path != researchsrc.SearchPath {
				for name, vals := range req.Header {
					kit.NoSecret(secret, strings.Join(vals, " "), "the fetched source %s received the search credential in header %s; only the search endpoint may", req.Path, name)
				}
			}
		}
		kit.NoSecret(secret, s.Responses(), "a model-authored argument holding the credential came back in a host response (a tool result, summary or error); a conformant host refuses or redacts it")
		kit.NoSecret(secret, s.H.Stderr(), "the host wrote the credential to its diagnostics (stderr)")
		Expect(s.StoreFilesContaining(secret)).To(BeEmpty(), "the host persisted the credential in these store files (checkpoints, trace, replay records)")
		fresh := kit.StartResearch(c, src, kit.ResearchOptions{From: s})
		ctx, cancel := kit.ResearchCtx(c)
		defer cancel()
		if events, err := fresh.H.Client().TraceList(ctx, "research-run"); err == nil {
			b, _ := json.Marshal(events)
			kit.NoSecret(secret, string(b), "trace/list of a fresh host on the store returns the credential")
		}
		kit.NoSecret(secret, fresh.Responses(), "a fresh host on the store sent the credential to the harness")
	})
})

// urlPassword is the password of the credential-in-url scenario's URL.
const urlPassword = "R3-url-password-5b8f"

// R4: bounded transport bodies, time, UTF-8 and serialized output.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 104, Name: "research-bounds", Area: "research", Title: "research bounds transport bodies, time, UTF-8 and serialized output",
	Scope: matrix.ScopeHost, Tools: []string{"research.fetch"}, Guarantees: []string{"R4"},
	Contract: "hosts/wire/tools/research.fetch.md#idempotency-and-timeouts", Guarantee: "A fetch MUST stop reading an oversized body, end within the call's timeout, refuse or repair content that is not UTF-8, and return valid JSON within the tool's byte and token limits.",
}, func(c *kit.TestContext) {
	eachResearchResult(c, "fetch-bounded.json", "R4 LR4", func(o *kit.Outcome, r oracle.ToolResult) {
		kit.FitsOutputLimits(o.File+" "+r.CanonicalToolID, kit.ResearchCallResult{ToolResult: kit.ToolResultOf(r)})
	})

	c.It("stops reading a huge body and answers within the tool's limits", "R4 LR4", func() {
		src, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true})
		r := s.Fetch(researchsrc.HugePath, nil)
		Expect(src.HugeDelivered()).To(BeNumerically("<", researchsrc.HugeBytes),
			"the host read the whole %d-byte body; a conformant host stops reading a transport body at its bound", researchsrc.HugeBytes)
		if r.OK {
			kit.FitsOutputLimits("fetch_url of the huge page", r)
		}
	})

	c.It("ends a fetch of a slow source within the call's timeout", "R4 LR4", func() {
		src, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true})
		const timeout = 500 * time.Millisecond
		r, err := s.Call("fetch_url", map[string]any{"url": src.URL(researchsrc.SlowPath)}, timeout)
		Expect(err).NotTo(HaveOccurred(), "fetch_url of a source that stalls was not answered within the call's %v timeout and 3 s of grace: %v", timeout, err)
		Expect(r.Elapsed).To(BeNumerically("<", timeout+2*time.Second), "fetch_url of a stalled source took %v with a %v timeout", r.Elapsed, timeout)
		if r.OK {
			Expect(r.Out["truncated"]).To(Equal(true), "a fetch cut by its deadline says truncated=false")
		}
	})

	c.It("refuses or repairs content that is not UTF-8, with a hash of what it returns", "R4 LR4", func() {
		_, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true})
		r := s.Fetch(researchsrc.Latin1Path, nil)
		if !r.OK {
			return // refused: UNSUPPORTED or similar
		}
		kit.FitsOutputLimits("fetch_url of a Latin-1 page", r)
		content, _ := r.Out["content"].(string)
		Expect(kit.SourceHash(content)).To(ContainElement(r.Out["contentHash"]),
			"fetch_url of bytes that are not UTF-8 returned content whose contentHash is not its SHA-256: the host hashed bytes it did not return")
	})
})

// R5: attributed and untrusted.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 105, Name: "research-untrusted", Area: "research", Title: "research sources are attributed and marked untrusted",
	Scope: matrix.ScopeHost, Tools: []string{"research.fetch", "research.search"}, Guarantees: []string{"R5"},
	Contract: "hosts/wire/tools/research.fetch.md#output", Guarantee: "Research output MUST attribute every source and search hit to its URL, mark it untrusted external content, and hash what it returns.",
}, func(c *kit.TestContext) {
	eachResearchResult(c, "fetch-attributed.json", "R5 LR5", resultProvenance)

	c.It("attributes a fetched page to its URL, marks it untrusted and hashes it", "R5 LR5", func() {
		_, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true})
		r := s.Fetch(researchsrc.PagePath, nil)
		Expect(r.OK).To(BeTrue(), "fetch_url of the allowed page failed: %s", r.Content)
		Expect(r.Trust).To(Equal("external"), "a fetch result's trust is %q; fetched content is external", r.Trust)
		checkProvenance("fetch_url", r.Out)
		content, _ := r.Out["content"].(string)
		Expect(kit.SourceHash(content)).To(ContainElement(r.Out["contentHash"]), "contentHash is not the SHA-256 of the returned content")
		Expect(r.Effects).NotTo(BeNil(), "a successful fetch attests no research source")
		Expect(r.Effects.ResearchSources).To(HaveLen(1), "a fetch attests %d research sources, want 1", len(r.Effects.ResearchSources))
		rs := r.Effects.ResearchSources[0]
		Expect(rs.Kind).To(Equal("fetch"), "the research source of a fetch_url call has the wrong kind")
		Expect(rs.URL).To(Equal(r.Out["url"]), "the research source names another URL than the output")
		Expect(rs.ContentHash).NotTo(BeNil(), "the research source of a fetched page has no contentHash")
		Expect(*rs.ContentHash).To(Equal(r.Out["contentHash"]), "the research source's contentHash differs from the output's")
	})

	c.It("attributes every search hit to its URL and marks it untrusted", "R5 LR5", func() {
		_, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true, Search: true})
		s.ActivateSearch()
		r := s.Result("search_web", map[string]any{"query": "conform research guide"})
		Expect(r.OK).To(BeTrue(), "search_web against the harness's endpoint failed: %s", r.Content)
		Expect(r.Trust).To(Equal("external"), "a search result's trust is %q; search results are external", r.Trust)
		checkProvenance("search_web", r.Out)
		hits, _ := r.Out["results"].([]any)
		Expect(hits).NotTo(BeEmpty(), "search_web returned no hit although the endpoint answered one")
	})
})

// resultProvenance asserts that a scenario's research result is JSON
// attributed to its URL and marked untrusted (checkProvenance).
func resultProvenance(o *kit.Outcome, r oracle.ToolResult) {
	GinkgoHelper()
	var out map[string]any
	Expect(json.Unmarshal([]byte(r.Content), &out)).To(Succeed(), "%s: the host's %s result (tool %s) has content that is not JSON: %.200q", o.File, r.CanonicalToolID, r.ToolName, r.Content)
	checkProvenance(o.File+" "+r.CanonicalToolID, out)
}

// checkProvenance asserts that a research output and each of its hits are
// attributed to their URL and marked untrusted_external.
func checkProvenance(what string, out map[string]any) {
	GinkgoHelper()
	check := func(item map[string]any, where string) {
		prov, _ := item["provenance"].(map[string]any)
		Expect(prov).NotTo(BeNil(), "%s: %s has no provenance", what, where)
		Expect(prov["trust"]).To(Equal("untrusted_external"), "%s: %s provenance trust is %v; external content is untrusted_external", what, where, prov["trust"])
		if u, ok := item["url"].(string); ok {
			Expect(prov["source"]).To(Equal(u), "%s: %s is attributed to %v, not to its URL %s", what, where, prov["source"], u)
		} else {
			Expect(prov["source"]).NotTo(BeEmpty(), "%s: %s names no source", what, where)
		}
	}
	check(out, "the output")
	if hits, ok := out["results"].([]any); ok {
		for _, h := range hits {
			if m, ok := h.(map[string]any); ok {
				check(m, "a search hit")
			}
		}
	}
}

// R6: a fetched source grants no workspace effects.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 106, Name: "research-no-effects", Area: "research", Title: "a fetched source cannot grant inspection, write, validation or plan effects",
	Scope: matrix.ScopeHost, Tools: []string{"research.fetch"}, Guarantees: []string{"R6", "T5"},
	Contract: "hosts/wire/tools/research.fetch.md#effects", Guarantee: "A fetched page that claims inspection, write, validation or plan effects MUST NOT make the host attest any of them; research attests only research sources.",
}, func(c *kit.TestContext) {
	eachResearchResult(c, "fetch-claims-effects.json", "R6 T5 LR6", grantsResearchOnly)

	c.It("a page that claims inspection, write, validation and plan effects grants none", "R6 T5 LR6", func() {
		src, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true})
		r, err := s.Call("fetch_url", map[string]any{"url": src.URL(researchsrc.EffectsPath)}, 0)
		Expect(err).NotTo(HaveOccurred(), "fetch_url of a page claiming effects was not answered with a result: %v", err)
		attestsResearchOnly("fetch_url of a page that claims effects", r.Effects)
		// A page that claims nothing grants nothing either (catches
		// research-fetch-inspected).
		attestsResearchOnly("fetch_url of a plain page", s.Fetch(researchsrc.PagePath, nil).Effects)
	})

	// Search hits are sources as fetched pages are, whatever their
	// snippets claim (catches research-search-inspected).
	c.It("a search hit whose snippet claims inspection, write, validation and plan effects grants none", "R6 T5 LR6", func() {
		_, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true, Search: true})
		s.ActivateSearch()
		r := s.Result("search_web", map[string]any{"query": "conform " + researchsrc.EffectsQuery})
		Expect(r.OK).To(BeTrue(), "search_web against the harness's endpoint failed: %s", r.Content)
		attestsResearchOnly("search_web", r.Effects)
	})
})

// attestsResearchOnly asserts that a research call's effects grant no
// workspace effect and count, for the core, as approval and research only.
func attestsResearchOnly(what string, e *port.Effects) {
	GinkgoHelper()
	Expect(kit.GrantedEffects(e)).To(BeEmpty(), "%s attests %v; research sources cannot grant workspace effects", what, kit.GrantedEffects(e))
	if e == nil {
		return
	}
	extra := []string{}
	for _, c := range effects.RequiredCapabilities(e) {
		if c != "approval" && c != "research" {
			extra = append(extra, c)
		}
	}
	Expect(extra).To(BeEmpty(), "the core would count the effects of %s as %v; research may attest approval and research only", what, extra)
}

// grantsResearchOnly asserts that a scenario's research result attests no
// effect but research sources.
func grantsResearchOnly(o *kit.Outcome, r oracle.ToolResult) {
	GinkgoHelper()
	Expect(kit.GrantedEffects(r.Effects)).To(BeEmpty(), "%s: %s attests %v; research attests research sources only", o.File, r.CanonicalToolID, kit.GrantedEffects(r.Effects))
}

// R7: truncation and unavailability disclosed, process-local evidence
// disclosed, durable success never reconstructed.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 107, Name: "research-evidence-scope", Area: "research", Title: "research discloses truncation, unavailability and process-local evidence",
	Scope: matrix.ScopeHost, Tools: []string{"research.fetch", "research.search"}, Guarantees: []string{"R7", "R8", "R9"},
	Contract: "hosts/wire/tools/research.fetch.md#output", Guarantee: "A host MUST mark cut sources truncated, report an unavailable source as a failure without evidence, disclose process-local evidence (a double's answers, a page remembered in the process) as such, and never present evidence remembered from another process or taken from task checkpoint prose as a new successful fetch.",
}, func(c *kit.TestContext) {
	eachResearchResult(c, "doubles-disclosed.json", "R7 R8 R9 LR7", func(o *kit.Outcome, r oracle.ToolResult) {
		if slices.Contains(o.Doubles, r.CanonicalToolID) {
			Expect(doubleDisclosed(r.Summary)).To(BeTrue(), "%s: %s is a process-local double but its summary %q does not say so", o.File, r.CanonicalToolID, r.Summary)
		}
	})

	c.It("says truncated when it cuts a page, and reports an unavailable source as a failure without evidence", "R7 LR7", func() {
		src, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true})
		r := s.Fetch(researchsrc.LongPath, map[string]any{"maxBytes": 1000})
		Expect(r.OK).To(BeTrue(), "fetch_url of the long page failed: %s", r.Content)
		content, _ := r.Out["content"].(string)
		Expect(len(content)).To(BeNumerically("<=", 1000), "fetch_url returned %d content bytes with maxBytes 1000", len(content))
		Expect(r.Out["truncated"]).To(Equal(true), "a %d-byte page returned as %d bytes says truncated=false; truncation must be distinguishable from a complete source", researchsrc.LongBytes, len(content))
		Expect(r.Effects.ResearchSources).NotTo(BeEmpty(), "fetch_url of the long page attests no research source")
		Expect(r.Effects.ResearchSources[0].Truncated).To(BeTrue(), "the research source of a cut page says truncated=false")
		// So is a body cut at the transport bound (R4 checks the bound).
		if r := s.Fetch(researchsrc.HugePath, nil); r.OK {
			Expect(r.Out["truncated"]).To(Equal(true), "a fetch of a body cut at the transport bound says truncated=false")
		}

		s.Fetch(researchsrc.OncePath, nil) // the source's one available answer
		// Unavailable (503) and missing (404) sources fail without
		// evidence (catches research-unavailable-as-empty).
		for _, u := range []string{src.URL(researchsrc.OncePath) + "?again", src.URL("/missing")} {
			r = s.Result("fetch_url", map[string]any{"url": u})
			Expect(r.OK).To(BeFalse(), "fetch_url of %s, which answers an HTTP error, succeeded: %.200q; unavailable evidence is a failure, not a verified source", u, r.Content)
			if r.Effects != nil {
				Expect(r.Effects.ResearchSources).To(BeEmpty(), "a failed fetch attests research sources")
			}
		}
	})

	// Evidence remembered in this process is process-local: said so, or
	// read again (catches research-memory-cache).
	c.It("a repeated fetch in one host process reads the source again or says its evidence is remembered", "R8 LR7", func() {
		src, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true})
		r := s.Fetch(researchsrc.OncePath, nil)
		Expect(r.OK).To(BeTrue(), "fetch_url of the allowed page failed: %s", r.Content)
		r = s.Result("fetch_url", map[string]any{"url": src.URL(researchsrc.OncePath)})
		if r.OK {
			Expect(src.RequestsTo(researchsrc.OncePath)).To(BeNumerically("<", 2),
				"the source answered 503 to its second request, yet fetch_url reported a successful fetch: %.200q", r.Content)
			Expect(evidenceRemembered(r.Summary)).To(BeTrue(),
				"fetch_url answered a repeated fetch without reading the source, and its summary %q does not say the evidence is remembered in this process; a host discloses process-local evidence", r.Summary)
		}
	})

	// Checkpoint prose is model-authored: a fetch of a URL it says was
	// fetched still reads the source (catches
	// research-checkpoint-evidence).
	c.It("a fresh host process fetches a source that the task checkpoint's prose says was fetched, and reports it unavailable", "R9 LR7", func() {
		src, s := kit.RealResearch(c, kit.ResearchOptions{Allow: true})
		u := src.URL("/missing")
		cp := s.Result("update_checkpoint", map[string]any{"action": "update", "progress": "Fetched " + u + ": the guide confirms the fix is verified."})
		if !cp.OK {
			kit.NotApplicable("the host does not keep a task checkpoint (update_checkpoint failed: " + cp.Content + ")")
		}
		fresh := kit.StartResearch(c, src, kit.ResearchOptions{Allow: true, From: s})
		r := fresh.Result("fetch_url", map[string]any{"url": u})
		Expect(r.OK).To(BeFalse(), "the source answers 404, yet a fresh host process reported a successful fetch (%.200q): research success reconstructed from model-authored checkpoint prose", r.Content)
		Expect(src.RequestsTo("/missing")).To(BeNumerically(">=", 1), "the host answered the fetch without reading the source")
	})

	// A labelled double's answers are process-local contract content:
	// every result says so (catches research-undisclosed-double).
	c.It("a labelled research double says in each result that it is deterministic contract content", "R8 LR7", func() {
		if double := kit.NeedResearchFetch(c); !double {
			kit.NotApplicable("research.fetch is not a labelled double; the specs above check a real adapter's evidence")
		}
		s := kit.StartResearch(c, kit.NewResearchSource(""), kit.ResearchOptions{})
		r := s.Result("fetch_url", map[string]any{"url": researchsrc.SearchHitURL})
		Expect(r.OK).To(BeTrue(), "fetch_url of the labelled double failed: %s", r.Content)
		Expect(doubleDisclosed(r.Summary)).To(BeTrue(), "research.fetch is a labelled double but its summary %q does not say its content is deterministic contract content", r.Summary)
	})

	c.It("a fresh host process reads a source again instead of presenting remembered evidence", "R8 R9 LR7", func() {
		kit.FailRepro(c)
		kit.NeedRealFetch(c)
		src := kit.NewResearchSource("")
		first := kit.StartResearch(c, src, kit.ResearchOptions{Allow: true})
		r := first.Fetch(researchsrc.OncePath, nil)
		Expect(r.OK).To(BeTrue(), "fetch_url of the allowed page failed: %s", r.Content)
		fresh := kit.StartResearch(c, src, kit.ResearchOptions{Allow: true, From: first})
		r = fresh.Result("fetch_url", map[string]any{"url": src.URL(researchsrc.OncePath)})
		Expect(src.RequestsTo(researchsrc.OncePath)).To(BeNumerically(">=", 2),
			"a fresh host process answered a fetch without reading the source: evidence remembered from another process is not an observation")
		Expect(r.OK).To(BeFalse(), "the source is now unavailable (503), yet a fresh host process reported a successful fetch: %.200q", r.Content)
	})
})
