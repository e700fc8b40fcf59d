package run_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/gomega"
)

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

// resultCodes lists the error code of every call record ("ok" for success).
func resultCodes(calls []runCall) []string {
	var out []string
	for _, c := range calls {
		switch {
		case c.Result == nil:
			out = append(out, "unknown")
		case c.Result.OK:
			out = append(out, "ok")
		default:
			out = append(out, c.Result.Error.Code)
		}
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
