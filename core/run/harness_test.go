package run_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/clock"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// testTool is one tool of the in-process test executor.
type testTool struct {
	name, canonical string
	caps            []string
	handle          func(call port.ToolCall) (port.ToolResult, error)
}

// testExec is a small fake host: a configurable tool set whose tools answer
// from handlers, recording every call it receives.
type testExec struct {
	mu       sync.Mutex
	tools    []testTool
	calls    []port.ToolCall
	contexts []port.ToolContext
	snapshot string
	restored [][]string
	// activateAfter adds these tools to the set after the first executed
	// call (a lazy activation) and changes the snapshot hash.
	activateAfter []testTool
	// Once changeCapsAt calls have been executed, the tool called
	// changeCapsOf declares newCaps instead of its own capabilities (the
	// host's effect policy changes).
	changeCapsOf string
	changeCapsAt int
	newCaps      []string
}

func ok(canonical string, effects *port.Effects) port.ToolResult {
	r := port.ToolResult{OK: true, CanonicalToolID: canonical, Content: `{"ok":true}`, Summary: canonical + " succeeded", Trust: "workspace"}
	if effects != nil {
		r.Effects, r.EffectsAuthority = effects, "host"
	}
	return r
}

func failed(canonical, code string) port.ToolResult {
	return port.ToolResult{OK: false, CanonicalToolID: canonical, Content: `{"ok":false}`, Summary: canonical + " failed", Trust: "workspace",
		Error: &port.ToolError{Code: code, Message: "tool failed"}}
}

func sp(s string) *string { return &s }

// defaultTools mirrors the original runtime test's deterministic executor.
func defaultTools() []testTool {
	return []testTool{
		{name: "git_diff", canonical: "git.diff", caps: []string{"diff_review"}, handle: func(port.ToolCall) (port.ToolResult, error) {
			return ok("git.diff", &port.Effects{DiffReview: &port.DiffReview{DiffHash: "sha256:final-diff"}}), nil
		}},
		{name: "project_validate", canonical: "project_validate", caps: []string{"validate"}, handle: func(port.ToolCall) (port.ToolResult, error) {
			return ok("project_validate", &port.Effects{Validations: []port.ValidationEntry{{ID: "unit", Detail: "unit tests pass", Scope: "workspace", Status: "passed"}}}), nil
		}},
		{name: "workspace_list", canonical: "workspace_list", caps: []string{"inspect"}, handle: func(port.ToolCall) (port.ToolResult, error) {
			return ok("workspace_list", &port.Effects{InspectedPaths: []string{"src"}}), nil
		}},
		{name: "workspace_write", canonical: "workspace_write", caps: []string{"write"}, handle: func(port.ToolCall) (port.ToolResult, error) {
			return ok("workspace_write", &port.Effects{Writes: []port.Write{{Path: "src/a.ts", BeforeHash: sp("before"), AfterHash: sp("after")}}}), nil
		}},
	}
}

func newExec(tools ...testTool) *testExec {
	if len(tools) == 0 {
		tools = defaultTools()
	}
	return &testExec{tools: tools, snapshot: "sha256:tool-set"}
}

// set replaces the handler of the tool called name.
func (e *testExec) set(name string, h func(port.ToolCall) (port.ToolResult, error)) *testExec {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := range e.tools {
		if e.tools[i].name == name {
			e.tools[i].handle = h
			return e
		}
	}
	panic("no tool " + name)
}

func (e *testExec) ToolSet(context.Context) (port.ToolSet, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	ts := port.ToolSet{CanonicalToolIDs: map[string]string{}, EffectCapabilities: map[string][]string{}, SnapshotHash: e.snapshot}
	for _, t := range e.tools {
		ts.Definitions = append(ts.Definitions, port.ToolDefinition{Type: "function", Function: port.FunctionSpec{
			Name: t.name, Description: "deterministic test tool", Parameters: map[string]any{"type": "object"}}})
		ts.CanonicalToolIDs[t.name] = t.canonical
		ts.EffectCapabilities[t.canonical] = t.caps
		if t.name == e.changeCapsOf && len(e.calls) >= e.changeCapsAt {
			ts.EffectCapabilities[t.canonical] = e.newCaps
		}
	}
	// The policy also covers the tools a lazy activation will add
	// (RUNTIME §3: policies for inactive tools are allowed), so the effect
	// policy hash does not change when they become active.
	for _, t := range e.activateAfter {
		ts.EffectCapabilities[t.canonical] = t.caps
	}
	return ts, nil
}

func (e *testExec) Execute(_ context.Context, call port.ToolCall, tc port.ToolContext) (port.ToolResult, error) {
	e.mu.Lock()
	e.calls = append(e.calls, call)
	e.contexts = append(e.contexts, tc)
	var h func(port.ToolCall) (port.ToolResult, error)
	for _, t := range e.tools {
		if t.name == call.Name {
			h = t.handle
		}
	}
	if e.activateAfter != nil {
		e.tools = append(e.tools, e.activateAfter...)
		e.snapshot = "sha256:tool-set-expanded"
		e.activateAfter = nil
	}
	e.mu.Unlock()
	if h == nil {
		return port.ToolResult{}, fmt.Errorf("unknown tool %q", call.Name)
	}
	return h(call)
}

func (e *testExec) RestoreToolSet(_ context.Context, names []string, _ string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.restored = append(e.restored, names)
	return nil
}

func (e *testExec) names() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, c := range e.calls {
		out = append(out, c.Name)
	}
	return out
}

// testVerifier is a deterministic workspace verifier.
type testVerifier struct {
	mu          sync.Mutex
	fingerprint string
	failCapture bool
	captures    [][]port.ActiveFile
}

func newVerifier() *testVerifier { return &testVerifier{fingerprint: "sha256:deterministic-workspace"} }

func (v *testVerifier) Capture(_ context.Context, in run.WorkspaceInput) (port.WorkspaceState, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.captures = append(v.captures, in.ActiveFiles)
	if v.failCapture {
		return port.WorkspaceState{}, &port.Error{Code: port.CodeIOError, Message: "capture failed"}
	}
	return port.WorkspaceState{ActiveFiles: in.ActiveFiles, DirtyStateSummary: in.DirtyStateSummary, StateFingerprint: v.fingerprint}, nil
}

func (v *testVerifier) Verify(_ context.Context, st port.WorkspaceState) (port.Verification, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return port.Verification{CurrentFingerprint: v.fingerprint, Matches: st.StateFingerprint == v.fingerprint}, nil
}

// fnModel is a model whose rounds are functions of the request, for cases
// the scripted double's fixture format cannot express (retry modes,
// capability variants, identities with credentials).
type fnModel struct {
	mu       sync.Mutex
	identity port.ModelIdentity
	caps     port.ModelCapabilities
	rounds   [][]port.RoundEvent
	requests []port.RoundRequest
}

func newFnModel(rounds ...[]port.RoundEvent) *fnModel {
	m := model.NewScripted(nil)
	return &fnModel{identity: m.Identity(), caps: m.CapabilitySnapshot(), rounds: rounds}
}

func (m *fnModel) Identity() port.ModelIdentity { return m.identity }

func (m *fnModel) Capabilities(context.Context) (port.ModelCapabilities, error) {
	return m.caps.Clone(), nil
}

func (m *fnModel) StreamRound(ctx context.Context, req port.RoundRequest) ([]port.RoundEvent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests = append(m.requests, req)
	if ctx.Err() != nil {
		return []port.RoundEvent{{Type: port.EventCanceled}}, nil
	}
	if len(m.rounds) == 0 {
		return []port.RoundEvent{{Type: port.EventStarted}, {Type: port.EventError, Error: &port.ProviderError{Code: "PROVIDER_ERROR", Message: "script exhausted"}}}, nil
	}
	r := m.rounds[0]
	m.rounds = m.rounds[1:]
	id := m.identity
	out := []port.RoundEvent{}
	for _, e := range r {
		if e.Type == port.EventDone && e.Identity == nil {
			e.Identity = &id
		}
		out = append(out, e)
	}
	return out, nil
}

func (m *fnModel) requestCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.requests)
}

func started() port.RoundEvent { return port.RoundEvent{Type: port.EventStarted} }
func doneText(text string) port.RoundEvent {
	return port.RoundEvent{Type: port.EventDone, Content: text, StopReason: port.StopCompleted}
}
func doneCalls() port.RoundEvent {
	return port.RoundEvent{Type: port.EventDone, StopReason: port.StopToolCalls}
}
func callEvent(name, id string) port.RoundEvent {
	return port.RoundEvent{Type: port.EventToolCall, Call: &port.ToolCall{ToolCallID: id, Name: name, Arguments: map[string]any{"path": "src/a.ts"}}}
}
func providerError(code, msg string, retryable bool, mode string) port.RoundEvent {
	return port.RoundEvent{Type: port.EventError, Error: &port.ProviderError{Code: code, Message: msg, Retryable: retryable, RetryMode: mode}}
}

// Scripted-double round helpers.
func call(name, id string) model.ToolCall {
	return model.ToolCall{ToolCallID: id, ToolName: name, Arguments: map[string]any{"path": "src/a.ts"}}
}
func calls(cs ...model.ToolCall) model.Round { return model.CallRound(cs...) }
func text(s string) model.Round              { return model.TextRound(s) }

// baseRequest mirrors the original runtime test's request.
func baseRequest(runID string) run.Request {
	return run.Request{
		Request: prompt.Request{
			Goal: "Inspect and complete the deterministic task", TaskID: "task-test", WorkspaceRoot: "/workspace", RunID: runID,
			Prompt: baseConfig(),
		},
		Budget: &run.BudgetInput{MaxCompletionRejections: run.N(3), MaxModelRetries: run.N(0), MaxToolCalls: run.N(20), MaxTurns: run.N(12)},
	}
}

// baseConfig is the prompt configuration of baseRequest: a concrete zsh
// interpreter on darwin.
func baseConfig() prompt.Configuration {
	return prompt.Configuration{ApprovalProfile: "balanced", Complexity: "standard", NetworkAccess: "denied", WriteAccess: "allowed",
		HostEnvironment: &prompt.HostEnvironment{Architecture: "arm64", OperatingSystem: "darwin", Command: prompt.CommandEnvironment{
			ArgumentsPrefix: []string{"-c"}, CommandMode: "shell_string", Executable: "/bin/zsh", PathStyle: "posix", Shell: "zsh", Stdin: "closed"}}}
}

// env bundles the ports of one test run.
type env struct {
	model    port.Model
	exec     *testExec
	store    port.RunStore
	trace    port.Trace
	verifier run.Verifier
	clock    *clock.Fake
	timers   run.Timers
	mu       sync.Mutex
	events   []run.Event
	onEvent  func(c *run.Controller, e run.Event)
	ctrl     *run.Controller
}

func newEnv(m port.Model) *env {
	return &env{model: m, exec: newExec(), clock: clock.NewFake(1_700_000_000_000)}
}

func scripted(rounds ...model.Round) *env { return newEnv(model.NewScripted(rounds)) }

// withStore gives e a fresh run store and a verifier and returns the store.
func (e *env) withStore() *store.RunStore {
	st := store.NewRunStore()
	e.store, e.verifier = st, newVerifier()
	return st
}

func (e *env) deps() run.Deps {
	d := run.Deps{Model: e.model, Tools: e.exec, Clock: e.clock, Sleeper: e.clock, IDs: clock.NewIDs(""), Timers: e.timers,
		OnEvent: func(ev run.Event) {
			e.mu.Lock()
			e.events = append(e.events, ev)
			e.mu.Unlock()
			if e.onEvent != nil {
				e.onEvent(e.ctrl, ev)
			}
		}}
	if e.store != nil {
		d.Store = e.store
	}
	if e.trace != nil {
		d.Trace = e.trace
	}
	if e.verifier != nil {
		d.Verifier = e.verifier
	}
	return d
}

func (e *env) controller() *run.Controller {
	e.ctrl = run.New(e.deps())
	return e.ctrl
}

// pauseAfter is an onEvent handler that pauses the run when the tool
// result of the call id arrives.
func pauseAfter(id string) func(*run.Controller, run.Event) {
	return func(c *run.Controller, ev run.Event) {
		if ev.Type == run.EventToolResult && ev.Call.ToolCallID == id {
			c.Pause(ev.RunID, "")
		}
	}
}

// rejectedForValidation starts req requiring a validation, with one
// completion rejection allowed, and expects the run, which makes none, to
// fail NO_PROGRESS.
func (e *env) rejectedForValidation(req run.Request) run.Result {
	GinkgoHelper()
	yes := true
	req.Completion = &prompt.Completion{RequireValidation: &yes}
	req.Budget.MaxCompletionRejections = run.N(1)
	r := e.start(req)
	Expect(r.ErrorCode).To(Equal(run.CodeNoProgress), r.ErrorMessage)
	return r
}

// pausedAfter starts req, pauses the run at the result of the call id and
// expects it to end paused.
func (e *env) pausedAfter(id string, req run.Request) run.Result {
	GinkgoHelper()
	e.onEvent = pauseAfter(id)
	r := e.start(req)
	Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
	return r
}

// pauseAfterFirstResult is an onEvent handler that pauses the run at its
// first tool result.
func pauseAfterFirstResult(c *run.Controller, ev run.Event) {
	if ev.Type == run.EventToolResult {
		c.Pause(ev.RunID, "")
	}
}

func wait(h *run.Handle) run.Result {
	select {
	case <-h.Done():
	case <-time.After(10 * time.Second):
		panic("run did not end")
	}
	return h.Wait()
}

func (e *env) start(req run.Request) run.Result {
	h, err := e.controller().Start(req)
	Expect(err).NotTo(HaveOccurred())
	return wait(h)
}

// complete starts req and expects the run to complete.
func (e *env) complete(req run.Request) run.Result {
	GinkgoHelper()
	r := e.start(req)
	Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
	return r
}

func (e *env) resume(req run.Request) run.Result {
	h, err := e.controller().Resume(req)
	Expect(err).NotTo(HaveOccurred())
	return wait(h)
}

func (e *env) eventsOf(typ string) []run.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []run.Event
	for _, ev := range e.events {
		if ev.Type == typ {
			out = append(out, ev)
		}
	}
	return out
}

// expectEnded expects r to have ended in status with the error code and
// message given.
func expectEnded(r run.Result, status, code, message string) {
	GinkgoHelper()
	Expect(r.Status).To(Equal(status))
	Expect(r.ErrorCode).To(Equal(code))
	Expect(r.ErrorMessage).To(Equal(message))
}

// lastDone returns the last done event the model streamed, nil when there
// is none.
func (e *env) lastDone() *port.RoundEvent {
	var done *port.RoundEvent
	for _, ev := range e.eventsOf(run.EventModel) {
		if ev.Model.Type == port.EventDone {
			done = ev.Model
		}
	}
	return done
}

func transitions(r run.Result) []string {
	var out []string
	for _, t := range r.Transitions {
		out = append(out, t.From+"->"+t.To)
	}
	return out
}

func outcomes(cp *checkpoint.Checkpoint) []string {
	var out []string
	for _, c := range cp.LastToolCalls {
		out = append(out, string(c.Outcome))
	}
	return out
}

func storedCheckpoints(s *store.RunStore) []*checkpoint.Checkpoint {
	var out []*checkpoint.Checkpoint
	for _, raw := range s.CheckpointHistory() {
		cp, err := checkpoint.Assert(raw)
		Expect(err).NotTo(HaveOccurred())
		out = append(out, cp)
	}
	return out
}

func decodeJSON(raw json.RawMessage) map[string]any {
	var m map[string]any
	Expect(json.Unmarshal(raw, &m)).To(Succeed())
	return m
}

func isRunError(err error, code string) bool {
	var re *run.Error
	return errors.As(err, &re) && re.Code == code
}

type (
	portCall   = port.ToolCall
	portResult = port.ToolResult
)

func roundCalls(name string, ids ...string) []port.RoundEvent {
	out := []port.RoundEvent{started()}
	for _, id := range ids {
		out = append(out, callEvent(name, id))
	}
	return append(out, doneCalls())
}

// fireAtTimers fires at once every timer armed for exactly ms milliseconds
// and never fires the others.
type fireAtTimers struct{ ms int64 }

func fireAt(ms int64) run.Timers { return fireAtTimers{ms} }

func (t fireAtTimers) AfterFunc(d time.Duration, f func()) func() bool {
	if d.Milliseconds() == t.ms {
		go f()
	}
	return func() bool { return true }
}

type runCall = run.CallRecord

// argCall is a scripted call with explicit arguments.
func argCall(name, id string, args map[string]any) model.ToolCall {
	return model.ToolCall{ToolCallID: id, ToolName: name, Arguments: args}
}

// repeatRounds is n rounds of one call each to name with args, the IDs
// prefix-0 … prefix-(n-1).
func repeatRounds(n int, name, prefix string, args map[string]any) []model.Round {
	out := make([]model.Round, n)
	for i := range out {
		out[i] = calls(argCall(name, fmt.Sprintf("%s-%d", prefix, i), args))
	}
	return out
}

// readTool is an observation tool (workspace.read) that reports the path it
// read as inspected.
func readTool() testTool {
	return testTool{name: "read_file", canonical: "workspace.read", caps: []string{"approval", "inspect"},
		handle: func(c port.ToolCall) (port.ToolResult, error) {
			p, _ := c.Arguments["path"].(string)
			r := ok("workspace.read", &port.Effects{Approval: "not_required", InspectedPaths: []string{p}})
			r.Content, r.Summary = `{"content":"contents of `+p+`","path":"`+p+`"}`, "read "+p
			return r, nil
		}}
}

// cyclingWrites answers workspace_write with the scripted before→after
// hash mutations of src/a.ts, then with structured failures.
func cyclingWrites(mutations ...[2]string) func(port.ToolCall) (port.ToolResult, error) {
	var mu sync.Mutex
	n := 0
	return func(port.ToolCall) (port.ToolResult, error) {
		mu.Lock()
		i := n
		n++
		mu.Unlock()
		if i >= len(mutations) {
			return port.ToolResult{OK: false, CanonicalToolID: "workspace_write", Content: `{"ok":true}`, Summary: "cycle fixture exhausted its scripted mutations",
				Trust: "trusted", Error: &port.ToolError{Code: "NO_PROGRESS", Message: "cycle fixture exhausted its scripted mutations"}}, nil
		}
		m := mutations[i]
		r := ok("workspace_write", &port.Effects{Writes: []port.Write{{Path: "src/a.ts", BeforeHash: sp(m[0]), AfterHash: sp(m[1])}}})
		r.Summary = "workspace state changed"
		return r, nil
	}
}

var abCycle = [][2]string{{"hash-a", "hash-b"}, {"hash-b", "hash-a"}, {"hash-a", "hash-b"}, {"hash-a", "hash-b"}}

// policyDecisions lists "action@attempt" of every policy_decision trace
// event ("action" alone when there is no attempt).
func policyDecisions(tr *store.Trace) []string {
	var out []string
	for _, ev := range tr.Events() {
		if ev.Kind != port.TracePolicyDecision {
			continue
		}
		p := decodeJSON(ev.Payload)
		s := p["action"].(string)
		if a, ok := p["attempt"]; ok {
			s += fmt.Sprintf("@%v", a)
		}
		if mt, ok := p["maxTurns"]; ok {
			s += fmt.Sprintf(" maxTurns=%v", mt)
		}
		out = append(out, s)
	}
	return out
}

// toolFree reports, per request, whether it offered no tools.
func toolFree(reqs []port.RoundRequest) []bool {
	out := make([]bool, len(reqs))
	for i, r := range reqs {
		out[i] = len(r.Tools) == 0
	}
	return out
}

// mandatoryDoc returns the decoded mandatory state document of a request.
func mandatoryDoc(req port.RoundRequest) map[string]any {
	for _, m := range req.Messages {
		if rest, found := strings.CutPrefix(m.Content, "[GALAXY MANDATORY RUN STATE"); found {
			_, body, _ := strings.Cut(rest, "\n")
			var doc map[string]any
			Expect(json.Unmarshal([]byte(body), &doc)).To(Succeed())
			return doc
		}
	}
	return nil
}

// requestText is every message content of a request joined.
func requestText(req port.RoundRequest) string {
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString(m.Content)
		b.WriteByte('\n')
	}
	return b.String()
}
