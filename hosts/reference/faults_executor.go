package reference

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// This file holds the fault seams of the tool executor's error semantics
// and policy order, and of the store and trace documents: see Faults.

// failureFaults rewrites an ok=false result as RetryableFailures (every
// failure retryable), UncorrelatedFailures (no call named in the content)
// and UncorrelatedDenialID (a denial correlated with the call's ID) do;
// without them it returns res unchanged.
func (s *session) failureFaults(res port.ToolResult, callID string) port.ToolResult {
	if s.faults.UncorrelatedDenialID && res.Effects != nil && res.Effects.ApprovalRequestID != "" {
		eff := *res.Effects
		eff.ApprovalRequestID = callID
		res.Effects = &eff
	}
	if res.Error == nil || (!s.faults.RetryableFailures && !s.faults.UncorrelatedFailures) {
		return res
	}
	te := *res.Error
	if s.faults.RetryableFailures {
		te.Retryable = true
	}
	if s.faults.UncorrelatedFailures {
		callID = ""
	}
	content, err := compactJSON(struct {
		OK         bool            `json:"ok"`
		Error      *port.ToolError `json:"error"`
		ToolCallID string          `json:"toolCallId"`
	}{false, &te, callID})
	if err != nil {
		return res
	}
	res.Error, res.Content = &te, content
	return res
}

// writeBeforePolicy reports whether the WriteBeforePolicy fault runs the
// call before its mode and approval policy: workspace writes and edits.
func (s *session) writeBeforePolicy(d catalog.Descriptor) bool {
	return s.faults.WriteBeforePolicy && (d.ID == "workspace.write" || d.ID == "workspace.edit")
}

// validatesOutput reports whether the host validates the output of tool d:
// always, except under OutputValidationReadOnly for a mutating tool.
func (s *session) validatesOutput(d catalog.Descriptor) bool {
	return !s.faults.OutputValidationReadOnly || d.Mutability == catalog.MutabilityRead
}

// mergePrevious is the StoreMergesDocuments put: the run's previous
// document of the kind (the file prev, "" when none) with doc's members
// written over it.
func mergePrevious(prev string, doc json.RawMessage) (json.RawMessage, error) {
	var old, cur map[string]any
	if err := json.Unmarshal(doc, &cur); err != nil {
		return nil, err
	}
	if prev == "" {
		return doc, nil
	}
	b, err := os.ReadFile(prev)
	if err != nil || json.Unmarshal(b, &old) != nil || old == nil {
		return doc, nil
	}
	maps.Copy(old, cur)
	text, err := compactJSON(old)
	return json.RawMessage(text), err
}

// storeBase is where the store keeps its documents: the storeDir, or under
// StoreInWorkspace a directory inside the workspace root.
func (s *session) storeBase(storeDir string) string {
	if s.faults.StoreInWorkspace {
		return filepath.Join(s.root.Dir(), ".conform-store")
	}
	return storeDir
}

// ownSequence renumbers listed trace events as TraceOwnSequence does.
func (s *session) ownSequence(evs []wire.TraceEvent) []wire.TraceEvent {
	if !s.faults.TraceOwnSequence {
		return evs
	}
	out := make([]wire.TraceEvent, len(evs))
	for i, e := range evs {
		e.Sequence = int64(i + 1)
		out[i] = e
	}
	return out
}

// flushLater is trace/flush under TraceFlushAsync: the pending lines are
// written and synced a second after the flush is answered. The caller
// holds t.mu.
func (t *fileTrace) flushLater() {
	lines := t.pending
	t.pending = nil
	if len(lines) == 0 {
		return
	}
	go func() {
		time.Sleep(time.Second)
		t.mu.Lock()
		defer t.mu.Unlock()
		f, err := os.OpenFile(t.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return
		}
		defer f.Close()
		for _, l := range lines {
			if _, err := f.WriteString(l + "\n"); err != nil {
				return
			}
		}
		_ = f.Sync()
	}()
}

// createsOnly keeps, under CommandCreatesOnly, only the writes that create
// a path; without it, writes unchanged.
func (s *session) createsOnly(writes []port.Write) []port.Write {
	if !s.faults.CommandCreatesOnly {
		return writes
	}
	var out []port.Write
	for _, w := range writes {
		if w.BeforeKind == "missing" {
			out = append(out, w)
		}
	}
	return out
}

// statusFromOutput is a validation check's status under
// ValidationStatusFromOutput: "passed" when its output says so; without
// the fault, status unchanged.
func (s *session) statusFromOutput(status, output string) string {
	if s.faults.ValidationStatusFromOutput && strings.Contains(strings.ToLower(output), "passed") {
		return "passed"
	}
	return status
}

// resolve routes a model name to its active descriptor; under
// CaseInsensitiveRouting and CanonicalIDAsModelName it also accepts the
// name in another letter case, or an active tool's canonical ID. The
// descriptor may be the registry's own ([catalog.Registry.LookupModelName]):
// a call only reads it.
func (s *session) resolve(name string) (catalog.Descriptor, bool) {
	if d, ok := s.registry.LookupModelName(name); ok {
		return d, true
	}
	if s.faults.CaseInsensitiveRouting {
		if d, ok := s.registry.ResolveModelName(strings.ToLower(name)); ok {
			return d, true
		}
	}
	if s.faults.CanonicalIDAsModelName {
		if d, ok := s.registry.ResolveCanonicalID(name); ok {
			return s.registry.ResolveModelName(d.ModelName)
		}
	}
	return catalog.Descriptor{}, false
}

// idemTool is the tool part of an idempotency record's key: the canonical
// ID, or nothing under IdempotencyKeyOnly.
func (s *session) idemTool(id string) string {
	if s.faults.IdempotencyKeyOnly {
		return ""
	}
	return id
}

// failureInspected adds, under FailureInspected, the path a failed call's
// arguments name to its effects as inspected.
func (s *session) failureInspected(res port.ToolResult, args json.RawMessage) port.ToolResult {
	if !s.faults.FailureInspected {
		return res
	}
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(args, &a) != nil || a.Path == "" {
		return res
	}
	eff := port.Effects{}
	if res.Effects != nil {
		eff = *res.Effects
	}
	eff.InspectedPaths = []string{a.Path}
	res.Effects, res.EffectsAuthority = &eff, effects.AuthorityHost
	return res
}
