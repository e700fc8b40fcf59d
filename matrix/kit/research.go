package kit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/window"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/researchsrc"
	"github.com/galaxy-stack/conform/matrix/oracle"
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// AllowanceEntry names the report entry that records the loopback
// allowance a research spec gave the host in initialize.
const AllowanceEntry = "research allowance"

// The environment variables through which conform configures a host's
// search provider for the credential item (PROTOCOL.md "Research
// configuration"): the search endpoint and its request headers.
const (
	ResearchSearchURLEnv = "CONFORM_RESEARCH_SEARCH_URL"
	ResearchHeadersEnv   = "CONFORM_RESEARCH_HEADERS"
)

// researchTimeout bounds one research call of a spec (the slow source has
// its own, shorter timeout).
const researchTimeout = 20 * time.Second

// A researchSession is one host process a research spec drives directly
// over the wire, with the full_contract tool profile (research needs
// network.outbound), approvals granted and, when asked, the harness's
// loopback source allowed.
type researchSession struct {
	c         *TestContext
	H         *session.Host
	src       *researchsrc.Source
	workspace string
	store     string
	Mode      string

	mu   sync.Mutex
	recv [][]byte // every line the host sent
	n    int
}

// ResearchOptions say how to start a researchSession.
type ResearchOptions struct {
	// Allow sends research.allowLoopback with the source's address.
	Allow bool
	// Env are variables (NAME=value) set for the host's process.
	Env []string
	// From, if set, is an earlier session: a fresh host process on its
	// workspace and store.
	From *researchSession
	// Mode is the task mode ("" is auto).
	Mode string
	// Deny answers every approval request with a denial.
	Deny bool
	// Search configures the host's search provider with the source's
	// search endpoint (ResearchSearchURLEnv).
	Search bool
	// HostProfile asks for the host tool profile, which grants no
	// network.outbound, instead of full_contract.
	HostProfile bool
}

// NewResearchSource starts the harness's loopback research source for one
// spec; it closes when the spec ends.
func NewResearchSource(secret string) *researchsrc.Source {
	src := researchsrc.New("conform-nonce-"+strings.ReplaceAll(CurrentSpecReport().LeafNodeText, " ", "-"), secret)
	DeferCleanup(src.Close)
	return src
}

// StartResearch starts a host process for a research spec.
func StartResearch(c *TestContext, src *researchsrc.Source, o ResearchOptions) *researchSession {
	GinkgoHelper()
	t := c.Host()
	s := &researchSession{c: c, src: src, Mode: o.Mode}
	if o.From != nil {
		s.workspace, s.store = o.From.workspace, o.From.store
	} else {
		dir, err := os.MkdirTemp("", "conform-research-")
		Expect(err).NotTo(HaveOccurred(), "the harness cannot make the research run's directory")
		DeferCleanup(func() { _ = os.RemoveAll(dir) })
		s.workspace, s.store = filepath.Join(dir, "workspace"), filepath.Join(dir, "store")
		for _, d := range []string{s.workspace, s.store} {
			Expect(os.Mkdir(d, 0o755)).To(Succeed(), "the harness cannot make %s", d)
		}
		if s.workspace, err = filepath.EvalSymlinks(s.workspace); err != nil {
			Fail(err.Error())
		}
	}
	pass := slices.Clone(t.Env)
	env := o.Env
	if o.Search {
		env = append(slices.Clone(env), ResearchSearchURLEnv+"="+src.URL(researchsrc.SearchPath))
	}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		GinkgoT().Setenv(k, v)
		pass = append(pass, k)
	}
	decision, profile := "allow", wire.ToolProfileFullContract
	if o.Deny {
		decision = "deny"
	}
	if o.HostProfile {
		profile = wire.ToolProfileHost
	}
	cfg := session.HostConfig{Argv: t.Argv, Workspace: s.workspace, StoreDir: s.store, PassEnv: pass,
		ToolProfile: profile, ForbidContainment: true, Mode: o.Mode,
		Approvals: map[string]string{"research.fetch": decision, "research.search": decision},
		OnRecv: func(line []byte) {
			s.mu.Lock()
			s.recv = append(s.recv, slices.Clone(line))
			s.mu.Unlock()
		},
	}
	if o.Allow {
		allowance := []string{src.Addr()}
		cfg.EditInitialize = func(p *wire.InitializeParams) { p.Research = &wire.ResearchParams{AllowLoopback: allowance} }
		AddReportEntry(AllowanceEntry, "initialize research.allowLoopback = [127.0.0.1:<port of the harness's own source>], for this spec only; never the default")
	}
	ctx, cancel := context.WithTimeout(c.Ctx(), freshHostTimeout)
	defer cancel()
	h, err := session.StartHost(ctx, cfg)
	Expect(err).NotTo(HaveOccurred(), "the host does not start and initialize for a research spec")
	DeferCleanup(func() { _ = h.Close() })
	s.H = h
	return s
}

// RealResearch records the item's certify repro, makes the spec not
// applicable unless the host backs research.fetch with a real adapter, and
// starts the spec's loopback source and a host process on it.
func RealResearch(c *TestContext, o ResearchOptions) (*researchsrc.Source, *researchSession) {
	GinkgoHelper()
	FailRepro(c)
	NeedRealFetch(c)
	src := NewResearchSource("")
	return src, StartResearch(c, src, o)
}

// ResearchCallResult is one tool/execute answer of a research spec.
type ResearchCallResult struct {
	port.ToolResult
	// Out is the decoded content of an ok result (nil otherwise).
	Out map[string]any
	// Elapsed is how long the host took to answer.
	Elapsed time.Duration
	// CallID is the call's ID.
	CallID string
}

// Call executes one tool call with a fresh call ID and idempotency key and
// the given timeout (0: researchTimeout).
func (s *researchSession) Call(model string, args map[string]any, timeout time.Duration) (ResearchCallResult, error) {
	GinkgoHelper()
	if timeout == 0 {
		timeout = researchTimeout
	}
	raw, err := json.Marshal(args)
	Expect(err).NotTo(HaveOccurred(), "the harness cannot encode the %s arguments %v", model, args)
	s.mu.Lock()
	s.n++
	id := fmt.Sprintf("research-%s-%d", model, s.n)
	s.mu.Unlock()
	mode := s.Mode
	if mode == "" {
		mode = "auto"
	}
	p := wire.ExecuteParams{CallID: id, ModelName: model, Arguments: raw, IdempotencyKey: id + "-" + filepath.Base(s.store),
		TimeoutMs: int(timeout / time.Millisecond), Context: wire.RunContext{RunID: "research-run", TaskID: "research-task", Mode: mode}}
	// The harness gives the host the call's timeout and a few seconds more
	// before it stops waiting.
	ctx, cancel := context.WithTimeout(s.c.Ctx(), timeout+3*time.Second)
	defer cancel()
	start := time.Now()
	r, err := s.H.Client().Execute(ctx, p)
	res := ResearchCallResult{ToolResult: r, Elapsed: time.Since(start), CallID: id}
	if err == nil && r.OK {
		if jerr := json.Unmarshal([]byte(r.Content), &res.Out); jerr != nil {
			res.Out = nil
		}
	}
	return res, err
}

// Result is call for a call that must be answered with a result.
func (s *researchSession) Result(model string, args map[string]any) ResearchCallResult {
	GinkgoHelper()
	r, err := s.Call(model, args, 0)
	Expect(err).NotTo(HaveOccurred(), "%s %v: the host did not answer with a result", model, args)
	return r
}

// Fetch fetches a source the spec's host was allowed to read; a host that
// refuses it although initialize allowed it makes the spec not applicable
// (its adapter cannot be checked against a source the harness controls).
func (s *researchSession) Fetch(path string, extra map[string]any) ResearchCallResult {
	GinkgoHelper()
	args := map[string]any{"url": s.src.URL(path)}
	for k, v := range extra {
		args[k] = v
	}
	r := s.Result("fetch_url", args)
	if !r.OK && r.Error != nil && (r.Error.Code == "INVALID_INPUT" || r.Error.Code == "PERMISSION_DENIED") && s.src.RequestsTo(path) == 0 {
		NotApplicable(fmt.Sprintf("the host refused the harness's loopback source %s (%s: %s) although initialize allowed it with research.allowLoopback; its research adapter cannot be checked against a source the harness controls",
			args["url"], r.Error.Code, r.Error.Message))
	}
	return r
}

// ActivateSearch makes the spec not applicable unless the host backs
// research.search with the search endpoint conform configures, and
// activates the lazy research.search through catalog.search.
func (s *researchSession) ActivateSearch() {
	GinkgoHelper()
	if !slices.Contains(s.H.Init.Tools, "research.search") {
		NotApplicable("the host does not back research.search with the search endpoint conform configures (" + ResearchSearchURLEnv + ", " + ResearchHeadersEnv + ")")
	}
	r := s.Result("search_tools", map[string]any{"query": "search web", "category": "research"})
	Expect(r.OK).To(BeTrue(), "search_tools did not activate search_web: %s", r.Content)
}

// Received returns every line the host sent, joined by newlines.
func (s *researchSession) Received() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, l := range s.recv {
		b.Write(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// StoreFilesContaining lists the files of the host's store directory whose
// bytes contain needle.
func (s *researchSession) StoreFilesContaining(needle string) []string {
	GinkgoHelper()
	var hits []string
	err := filepath.WalkDir(s.store, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		data, rerr := os.ReadFile(p)
		if rerr == nil && strings.Contains(string(data), needle) {
			rel, _ := filepath.Rel(s.store, p)
			hits = append(hits, filepath.ToSlash(rel))
		}
		return nil
	})
	Expect(err).NotTo(HaveOccurred(), "the harness cannot walk the host's store directory %s", s.store)
	return hits
}

// ResearchBacking says how the host under test backs research tool id: not
// at all, with a labelled double, or with what it says is a real adapter.
func ResearchBacking(c *TestContext, id string) (backed, double bool) {
	GinkgoHelper()
	init := c.Host().Initialized()
	return slices.Contains(init.Tools, id), slices.Contains(init.Doubles, id)
}

// NeedResearchFetch records the item's certify repro and makes the spec
// not applicable unless the host backs research.fetch; it reports whether
// research.fetch is a labelled double.
func NeedResearchFetch(c *TestContext) (double bool) {
	GinkgoHelper()
	FailRepro(c)
	backed, double := ResearchBacking(c, "research.fetch")
	if !backed {
		NotApplicable("the host does not back research.fetch (initialize did not list it)")
	}
	return double
}

// NeedRealFetch makes the spec not applicable unless the host backs
// research.fetch with what it says is a real adapter.
func NeedRealFetch(c *TestContext) {
	GinkgoHelper()
	backed, double := ResearchBacking(c, "research.fetch")
	switch {
	case !backed:
		NotApplicable("the host does not back research.fetch (initialize did not list it)")
	case double:
		NotApplicable("research.fetch is a labelled contract double (initialize doubles lists it): it reads no network, so the harness's loopback source cannot apply; the item's scenario checks the double through the core")
	}
}

// SourceHash is the SHA-256 of s, as hex, in both spellings a host may
// use ("sha256:<hex>" and bare hex).
func SourceHash(s string) []string {
	sum := sha256.Sum256([]byte(s))
	h := hex.EncodeToString(sum[:])
	return []string{h, "sha256:" + h}
}

// FitsOutputLimits asserts that a research result's content is UTF-8,
// valid JSON, and left unchanged by the core's output limiter at the
// tool's catalog limits, so that no JSON is cut.
func FitsOutputLimits(what string, r ResearchCallResult) {
	GinkgoHelper()
	Expect(utf8.ValidString(r.Content)).To(BeTrue(), "%s: the result content is not UTF-8", what)
	Expect(json.Valid([]byte(r.Content))).To(BeTrue(), "%s: the result content is not valid JSON: %.200q", what, r.Content)
	lim := window.DefaultLimits()
	for _, d := range catalog.ForHost().Tools {
		if d.ID == r.CanonicalToolID {
			if d.MaxOutputBytes > 0 {
				lim.MaxBytes = float64(d.MaxOutputBytes)
			}
			if d.MaxOutputTokens > 0 {
				lim.MaxTokens = float64(d.MaxOutputTokens)
			}
		}
	}
	b, err := window.BoundToolOutput(r.Content, lim, window.BoundOptions{})
	Expect(err).NotTo(HaveOccurred(), "the core cannot bound the result's content")
	Expect(b.Truncated).To(BeFalse(), "%s: the result (%d bytes, ~%d tokens) exceeds the tool's limits (%v bytes, %v tokens), so the core would cut its JSON; a conformant host shrinks its output to fit both limits",
		what, b.OriginalBytes, b.OriginalTokens, lim.MaxBytes, lim.MaxTokens)
}

// GrantedEffects names the non-research effects a result attests.
func GrantedEffects(e *port.Effects) []string {
	if e == nil {
		return nil
	}
	var out []string
	add := func(ok bool, name string) {
		if ok {
			out = append(out, name)
		}
	}
	add(len(e.InspectedPaths) > 0, "inspectedPaths")
	add(len(e.Writes) > 0, "writes")
	add(len(e.Validations) > 0, "validations")
	add(e.Plan != nil, "plan")
	add(e.DiffReview != nil, "diffReview")
	add(len(e.AcceptanceCriteriaSatisfied) > 0, "acceptanceCriteriaSatisfied")
	add(len(e.AcceptanceCriteriaWaived) > 0, "acceptanceCriteriaWaived")
	add(e.NextAction != "", "nextAction")
	add(e.StateVersion != "", "stateVersion")
	return out
}

// FailRepro records the item's certify repro before a Go spec asserts.
func FailRepro(c *TestContext) {
	AddReportEntry(ReproEntry, c.Host().CertifyRepro(c.Ref))
}

// ResearchCtx bounds one wire call of a research spec beyond tool/execute.
func ResearchCtx(c *TestContext) (context.Context, context.CancelFunc) {
	return context.WithTimeout(c.Ctx(), freshHostTimeout)
}

// ToolResultOf is the part of a scenario's observed tool result that the
// output checks read.
func ToolResultOf(r oracle.ToolResult) port.ToolResult {
	return port.ToolResult{OK: r.OK, CanonicalToolID: r.CanonicalToolID, Content: r.Content, Summary: r.Summary, Effects: r.Effects}
}

// plantedMark replaces the planted credential in failure messages, so that
// conform's own report never carries it.
const plantedMark = "[PLANTED CREDENTIAL]"

// secretLeak returns "" when text does not hold secret (literally or
// URL-escaped), else an excerpt around its first occurrence with the
// secret replaced by plantedMark.
func secretLeak(text, secret string) string {
	i := strings.Index(text, secret)
	if i < 0 {
		if esc := url.QueryEscape(secret); esc != secret {
			i = strings.Index(text, esc)
		}
		if i < 0 {
			return ""
		}
	}
	from, to := max(0, i-80), min(len(text), i+len(secret)+80)
	return strings.ReplaceAll(strings.ToValidUTF8(text[from:to], "?"), secret, plantedMark)
}

// NoSecret fails the spec when text holds secret, saying where, without
// repeating the secret.
func NoSecret(secret, text, format string, args ...any) {
	GinkgoHelper()
	if leak := secretLeak(text, secret); leak != "" {
		Fail(fmt.Sprintf(format, args...) + fmt.Sprintf(" (…%s…)", leak))
	}
}

// ApprovalCalls are the call IDs of the approval requests the host sent
// for canonical tool id, in the order it sent them.
func (s *researchSession) ApprovalCalls(id string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var calls []string
	for _, l := range s.recv {
		var m struct {
			Method string              `json:"method"`
			Params wire.ApprovalParams `json:"params"`
		}
		if json.Unmarshal(l, &m) == nil && m.Method == wire.MethodApproval && m.Params.CanonicalToolID == id {
			calls = append(calls, m.Params.Context.ToolCallID)
		}
	}
	return calls
}

// Responses returns the host's responses among its lines (not its own
// requests, such as approval/request, which echo the model's arguments).
func (s *researchSession) Responses() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, l := range s.recv {
		var m struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(l, &m) == nil && m.Method != "" {
			continue
		}
		b.Write(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// researchIDs are the canonical research tools.
func researchIDs() []string { return []string{"research.fetch", "research.search"} }

// ResearchResults are the scenario's research tool results.
func (o *Outcome) ResearchResults() []oracle.ToolResult {
	var out []oracle.ToolResult
	for _, r := range o.Observed.ToolResults {
		if slices.Contains(researchIDs(), r.CanonicalToolID) {
			out = append(out, r)
		}
	}
	Expect(out).NotTo(BeEmpty(), "%s: the run has no research result to check", o.File)
	return out
}
