package lab

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

// Where a run request's prompt configuration came from (Report.PromptInput).
const (
	// PromptInputHost: the host's initialize answer carried a promptInput,
	// merged over the harness's defaults.
	PromptInputHost = "host"
	// PromptInputDefaults: the host supplied none; the harness's defaults
	// (LAB §3.8) were used.
	PromptInputDefaults = "defaults"
)

// StatusRefused is the status of a fixture whose run request the core
// refused before the first model request.
const StatusRefused = "refused"

// A Refusal is the core refusing a run request before the first model
// request, with its own message.
type Refusal struct {
	// Message is the core's message, unchanged.
	Message string `json:"message"`
	// ByHost is true when the request held the host's prompt input and
	// nothing the fixture added: the host's own input was refused.
	ByHost bool `json:"byHost"`
	// Resume is true when a resume request was refused.
	Resume bool `json:"resume,omitempty"`
}

func (r *Refusal) Error() string { return "run request refused: " + r.Message }

// promptRequest returns req with the host's prompt input and then the
// fixture's members merged in (fixture.Conform.RequestMembers), read back
// through the core's own request parser, which applies every rule of
// RUNTIME §4.2–§4.3. With neither, req is returned as it is. A request the
// core refuses is a *Refusal.
func promptRequest(req run.Request, hostInput json.RawMessage, memberSets ...json.RawMessage) (run.Request, error) {
	var sets []json.RawMessage
	for _, m := range memberSets {
		if len(m) > 0 {
			sets = append(sets, m)
		}
	}
	if len(hostInput) == 0 && len(sets) == 0 {
		return req, nil
	}
	data, err := json.Marshal(req.Request)
	if err != nil {
		return req, fmt.Errorf("encoding the run request: %w", err)
	}
	tree, err := canon.Parse(data)
	if err != nil {
		return req, err
	}
	obj := tree.(canon.Object)
	if len(hostInput) > 0 {
		in, err := parseObject(hostInput, "the host's promptInput")
		if err != nil {
			// The schema let it through (an object with a duplicate key,
			// say): the core cannot read it, and the host is to blame.
			return req, &Refusal{Message: err.Error(), ByHost: true}
		}
		cfg, _ := obj.Get("prompt")
		obj = set(obj, "prompt", mergePrompt(cfg.(canon.Object), in))
	}
	for _, members := range sets {
		add, err := parseObject(members, "conform.requestMembers")
		if err != nil {
			return req, err
		}
		for _, m := range add {
			cfg, isObject := m.Value.(canon.Object)
			base, _ := obj.Get("prompt")
			if baseObject, ok := base.(canon.Object); m.Key == "prompt" && isObject && ok {
				for _, pm := range cfg {
					baseObject = set(baseObject, pm.Key, pm.Value)
				}
				obj = set(obj, "prompt", baseObject)
				continue
			}
			obj = set(obj, m.Key, m.Value)
		}
	}
	data, err = json.Marshal(obj)
	if err != nil {
		return req, fmt.Errorf("encoding the run request: %w", err)
	}
	parsed, err := prompt.ParseRequest(data, req.RunID)
	var re *prompt.RequestError
	if errors.As(err, &re) {
		return req, &Refusal{Message: re.Message, ByHost: len(sets) == 0}
	}
	if err != nil {
		return req, err
	}
	parsed.Budget, parsed.Checkpoint, parsed.CheckpointTrust = req.Request.Budget, req.Request.Checkpoint, req.Request.CheckpointTrust
	req.Request = parsed
	return req, nil
}

// mergePrompt lays the host's members over the harness's prompt
// configuration: a member the host sends replaces the default, except
// trustedWorkspaceInstructions, where the host's list comes first and the
// fixture's own instructions follow it. Unknown members are kept for the
// core to judge.
func mergePrompt(defaults, host canon.Object) canon.Object {
	out := append(canon.Object(nil), defaults...)
	for _, m := range host {
		if m.Key == "trustedWorkspaceInstructions" {
			mine, ok1 := m.Value.([]any)
			theirs, _ := out.Get(m.Key)
			rest, ok2 := theirs.([]any)
			if ok1 && (ok2 || theirs == nil) {
				out = set(out, m.Key, append(append([]any{}, mine...), rest...))
				continue
			}
		}
		out = set(out, m.Key, m.Value)
	}
	return out
}

// set returns o with member key set to v, in place when it exists, else
// appended.
func set(o canon.Object, key string, v any) canon.Object {
	for i, m := range o {
		if m.Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, canon.Member{Key: key, Value: v})
}

// parseObject parses raw, which must be one JSON object.
func parseObject(raw json.RawMessage, what string) (canon.Object, error) {
	v, err := canon.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	o, ok := v.(canon.Object)
	if !ok {
		return nil, fmt.Errorf("%s is not a JSON object", what)
	}
	return o, nil
}

// PromptSource says where a request's prompt configuration came from.
func PromptSource(hostInput json.RawMessage) string {
	if len(hostInput) > 0 {
		return PromptInputHost
	}
	return PromptInputDefaults
}

// refusedReport ends rep for a run request the core refused (refusal):
// the host is shut down, and the fixture passes only when its
// conform.expectRefusal names exactly the core's message. results are the
// executions that ran before a refused resume request, if any.
func (r *fixtureRun) refusedReport(rep *Report, results []run.Result, refusal *Refusal) *Report {
	r.closeHost()
	rep.Incidents = r.incidents
	rep.Approvals, rep.Wire = r.approvals, r.wireLog()
	rep.Refusal = refusal
	if rep.Failures == nil {
		rep.Failures = []oracle.Failure{}
	}
	rep.Status, rep.ErrorMessage = StatusRefused, refusal.Message
	if n := len(results); n > 0 {
		rep.Status = results[n-1].Status
	}
	want := ""
	if r.fx.Conform != nil {
		want = r.fx.Conform.ExpectRefusal
	}
	switch {
	case want == refusal.Message:
	case want != "":
		rep.Failures = append(rep.Failures, oracle.Failure{File: r.fx.File, Assertion: "conform.expectRefusal",
			Expected: "the core refuses the run request: " + want, Actual: "it refused it: " + refusal.Message,
			Message: "The core refused the run request for another reason: " + refusal.Message})
	case refusal.ByHost:
		rep.Failures = append(rep.Failures, oracle.Failure{File: r.fx.File, Assertion: "promptInput",
			Expected: "the core accepts the host's prompt input", Actual: refusal.Message,
			Message: "The core refused the run request built from the host's promptInput: " + refusal.Message})
	default:
		rep.Failures = append(rep.Failures, oracle.Failure{File: r.fx.File, Assertion: "conform.requestMembers",
			Expected: "the core accepts the run request", Actual: refusal.Message,
			Message: "The core refused the run request: " + refusal.Message})
	}
	rep.Passed = len(rep.Failures) == 0
	return rep
}

// JudgePromptInput returns the core's refusal (a *Refusal) of a run
// request that holds input as a host's prompt input over a stock
// configuration of the harness, or nil when the core accepts it. A host
// author's test, and the mutants' wire specs, ask it what a run would.
func JudgePromptInput(input json.RawMessage) error {
	req := run.Request{Request: prompt.Request{
		Goal: "Check the host's prompt input.", TaskID: "prompt-input", RunID: "prompt-input", WorkspaceRoot: "/workspace",
		Prompt: prompt.Configuration{ApprovalProfile: "balanced", Complexity: "simple", NetworkAccess: "allowed", WriteAccess: "allowed"},
	}}
	_, err := promptRequest(req, input)
	return err
}
