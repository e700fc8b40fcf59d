package mutants_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/hosts/reference/research"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/internal/researchsrc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// researchSecret is the provider credential the research specs plant.
const researchSecret = "sk-conform-mutant-4f1c9a"

// researchSpecs are the wire-level specs of the research mutants (items
// R1–R7): the reference host answers one way, the mutant another.
var researchSpecs = map[string]func(name string){
	"research-unlabelled-double": func(name string) {
		src, ref, mut := researchBoth(name, false)
		for _, h := range []*host{ref, mut} {
			Expect(h.init.Doubles).To(BeEmpty(), "%s labels no double", h)
			_, out := h.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.PagePath)})
			Expect(strings.Contains(out["content"].(string), src.Nonce)).To(Equal(h == ref), "%s read the page", h)
		}
	},
	"research-credential-query": func(name string) {
		src, ref, mut := researchBoth(name, true)
		for _, h := range []*host{ref, mut} {
			h.ok("search_tools", map[string]any{"query": "search web", "category": "research"})
			h.ok("search_web", map[string]any{"query": "conform research guide"})
			q := lastRequest(src, researchsrc.SearchPath).RawQuery
			Expect(strings.Contains(q, researchSecret)).To(Equal(h == mut), "%s: search query %q", h, q)
		}
	},
	"research-credential-to-source": func(name string) {
		src, ref, mut := researchBoth(name, true)
		for _, h := range []*host{ref, mut} {
			h.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.PagePath)})
			got := lastRequest(src, researchsrc.PagePath).Header.Get("Authorization")
			Expect(got != "").To(Equal(h == mut), "%s sent %q to the source", h, got)
		}
	},
	"research-unredacted-provider": func(name string) {
		src, ref, mut := researchBoth(name, true)
		for _, h := range []*host{ref, mut} {
			h.ok("search_tools", map[string]any{"query": "search web", "category": "research"})
			r, _ := h.ok("search_web", map[string]any{"query": "conform research guide"})
			Expect(strings.Contains(r.Content, researchSecret)).To(Equal(h == mut), "%s: %s", h, r.Content)
			r, _ = h.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.EchoPath)})
			Expect(strings.Contains(r.Content, researchSecret)).To(Equal(h == mut), "%s: %s", h, r.Content)
		}
	},
	"research-unbounded-body": func(name string) {
		src, ref, _ := researchBoth(name, false)
		ref.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.HugePath)})
		Expect(src.HugeDelivered()).To(BeNumerically("<", researchsrc.HugeBytes), "the reference host stops reading")
		src2, _, mut := researchBoth(name, false)
		mut.ok("fetch_url", map[string]any{"url": src2.URL(researchsrc.HugePath)})
		Expect(src2.HugeDelivered()).To(BeNumerically("==", researchsrc.HugeBytes), "the mutant reads the whole body")
	},
	"research-ignore-deadline": func(name string) {
		src, ref, mut := researchBoth(name, false)
		for _, h := range []*host{ref, mut} {
			p := params("fetch_url", map[string]any{"url": src.URL(researchsrc.SlowPath)})
			p.TimeoutMs = 500
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
			r, err := h.client.Execute(ctx, p)
			cancel()
			if h == ref {
				Expect(err).NotTo(HaveOccurred())
				Expect(r.OK).To(BeFalse())
				Expect(r.Error.Code).To(Equal("DEADLINE_EXCEEDED"))
			} else {
				Expect(err).To(HaveOccurred(), "the mutant is still reading when the harness gives up")
			}
		}
	},
	"research-invalid-utf8": func(name string) {
		src, ref, mut := researchBoth(name, false)
		ref.fails("fetch_url", map[string]any{"url": src.URL(researchsrc.Latin1Path)}, "UNSUPPORTED")
		_, out := mut.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.Latin1Path)})
		Expect(out["content"]).To(ContainSubstring("\uFFFD"), "the invalid bytes reached the wire")
	},
	"research-trusted-content": func(name string) {
		src, ref, mut := researchBoth(name, false)
		for _, h := range []*host{ref, mut} {
			r, out := h.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.PagePath)})
			prov := out["provenance"].(map[string]any)
			Expect(prov["trust"] == research.TrustExternal).To(Equal(h == ref), "%s: provenance %v", h, prov)
			Expect(r.Trust == "external").To(Equal(h == ref), "%s: trust %q", h, r.Trust)
		}
	},
	"research-truncation-unmarked": func(name string) {
		src, ref, mut := researchBoth(name, false)
		for _, h := range []*host{ref, mut} {
			r, out := h.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.LongPath), "maxBytes": 1000})
			Expect(out["truncated"]).To(Equal(h == ref), "%s: truncated", h)
			Expect(r.Effects.ResearchSources[0].Truncated).To(Equal(h == ref), "%s: source truncated", h)
		}
	},
	"research-page-effects": func(name string) {
		src, ref, mut := researchBoth(name, false)
		for _, h := range []*host{ref, mut} {
			r, _ := h.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.EffectsPath)})
			granted := len(r.Effects.InspectedPaths) > 0 || len(r.Effects.Writes) > 0 || len(r.Effects.Validations) > 0 || r.Effects.Plan != nil
			Expect(granted).To(Equal(h == mut), "%s: effects %+v", h, r.Effects)
		}
	},
	"research-durable-cache": func(name string) {
		onOwnSources(name, func(h *host, src *researchsrc.Source, mutated bool) {
			h.ok("fetch_url", map[string]any{"url": src.URL(researchsrc.OncePath)})
			// The next request of the source fails: only a host that does
			// not read it again succeeds.
			r := h.freshResearch(src).result("fetch_url", map[string]any{"url": src.URL(researchsrc.OncePath)})
			Expect(r.OK).To(Equal(mutated), "%s: %s", h, r.Content)
		})
	},
}

var _ = addSpecs(researchSpecs)

// researchBoth starts a research source and the reference host and the
// mutant on it: full_contract (research needs network.outbound), the
// source's address allowed, and with search the source as the search
// endpoint with a bearer credential.
func researchBoth(mutant string, search bool) (*researchsrc.Source, *host, *host) {
	src := researchsrc.New("nonce-"+mutant, researchSecret)
	DeferCleanup(src.Close)
	var env []string
	if search {
		hdr, err := json.Marshal(map[string]string{"Authorization": "Bearer " + researchSecret})
		Expect(err).NotTo(HaveOccurred())
		env = []string{research.EnvSearchURL + "=" + src.URL(researchsrc.SearchPath), research.EnvHeaders + "=" + string(hdr)}
	}
	return src, launchResearch("", src, env), launchResearch(mutant, src, env)
}

// launchResearch starts one host for researchBoth with env set and passed
// to it (and to every fresh process on its directories).
func launchResearch(mutant string, src *researchsrc.Source, env []string) *host {
	dir := GinkgoT().TempDir()
	h := &host{mutant: mutant, dir: dir, ws: filepath.Join(dir, "workspace"), st: filepath.Join(dir, "store"),
		su: setup{params: func(p *wire.InitializeParams) {
			p.ToolProfile = wire.ToolProfileFullContract
			p.Research = &wire.ResearchParams{AllowLoopback: []string{src.Addr()}}
		}}}
	Expect(os.Mkdir(h.ws, 0o755)).To(Succeed())
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		GinkgoT().Setenv(k, v)
		h.su.passEnv = append(h.su.passEnv, k)
	}
	h.startResearch()
	return h
}

// freshResearch starts another process of h's kind on its directories.
func (h *host) freshResearch(src *researchsrc.Source) *host {
	f := &host{mutant: h.mutant, dir: h.dir, ws: h.ws, st: h.st, su: h.su}
	f.startResearch()
	return f
}

// startResearch starts h's host process with the approver of its setup
// and the variables its setup names.
func (h *host) startResearch() {
	exe, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	argv := []string{exe, "host", "serve", "reference"}
	if h.mutant != "" {
		argv = append(argv, "--mutant", h.mutant)
	}
	c, err := hostproc.Start(argv, hostproc.StartOptions{Dir: h.dir, CallTimeout: 20 * time.Second, PassEnv: h.su.passEnv,
		Approver: func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			if h.su.onApproval != nil {
				h.su.onApproval(h.ws)
			}
			return wire.ApprovalDecision{Approved: !h.su.deny, Scope: "once", Reason: "decided by the test"}, nil
		}})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { _ = c.Close(5 * time.Second) })
	p := baseParams(h.ws, h.st)
	h.su.params(&p)
	h.init, err = c.Initialize(context.Background(), p)
	Expect(err).NotTo(HaveOccurred(), "%s: %s", h, c.Stderr())
	h.client = c
}

// lastRequest is the last request the source received for path.
func lastRequest(src *researchsrc.Source, path string) researchsrc.Request {
	var last *researchsrc.Request
	for _, r := range src.Requests() {
		if r.Path == path {
			last = &r
		}
	}
	Expect(last).NotTo(BeNil(), "the source received no request for %s", path)
	return *last
}
