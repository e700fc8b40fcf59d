package guard

import (
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
)

// Result is what the guards need to know about one dispatched call's
// result once its effects were applied.
type Result struct {
	// OK is the result's ok.
	OK bool
	// HostEffects are the result's effects when effectsAuthority is
	// "host", else nil.
	HostEffects *port.Effects
	// WriteCapable reports whether the round tool set grants the call's
	// canonical ID the write capability (RUNTIME §15 step 16).
	WriteCapable bool
	// FailureState is the workspace state of a failed write-capable call:
	// a fresh capture when a verifier is configured, "" when there is none
	// or the capture failed (the state version is used, DECISIONS 5).
	FailureState string
	// Writes are the writes recorded as evidence, in order: the result's
	// host-attested writes minus generated paths (RUNTIME §16.4).
	Writes []port.Write
	// Fingerprint is the workspace fingerprint captured for this result's
	// evidence (RUNTIME §16.3 step 9); it keys validation failures.
	Fingerprint string
}

// A Report is what AfterResult found: feedback for the context (in order)
// and whether the call advanced the state version or reset the counters.
type Report struct {
	Feedback     []string
	StateChanged bool
	Reset        bool
}

// AfterResult runs the post-dispatch accounting of RUNTIME §15 steps 16–18
// for a dispatched call, after the controller applied the result's effects
// to ev: the failed mutation family (§18.3), the write-hash cycle and
// repeated validation guards (§18.5), then progress accounting (§17):
// observation family counting, host state versions, the state version and
// the counter reset. The controller calls it only when effect application
// succeeded (otherwise the run fails anyway).
func (g *Guard) AfterResult(c Call, r Result, ev Evidence) Report {
	defer delete(g.flagged, c.ToolCallID)
	var rep Report
	// Core fault: failed mutations are never counted per path and state.
	if !r.OK && r.WriteCapable && !faults.On(faults.GuardSkipFailedFamily) {
		state := r.FailureState
		if state == "" {
			state = g.stateVersion
		}
		if n := g.failedFamilies.inc(c.canonicalOrName() + ":" + c.path() + ":" + state); n >= 3 {
			rep.Feedback = append(rep.Feedback, g.incident(c,
				c.canonicalOrName()+" failed "+itoa(n)+" times against the same path and workspace state",
				"re-read the current file and derive a fresh hash-bound edit, or stop and request direction"))
		}
	}
	fx := r.HostEffects
	if r.OK && fx != nil && fx.Approval != "pending" {
		if f, ok := g.recordWrites(c, r.Writes); ok {
			rep.Feedback = append(rep.Feedback, f)
		}
		if f, ok := g.recordValidations(c, fx.Validations, r.Fingerprint); ok {
			rep.Feedback = append(rep.Feedback, f)
		}
	}

	canChange := fx != nil && (r.OK || fx.Approval == "denied")
	if family, ok := g.family(c); ok {
		g.observations[family]++
	}
	if r.OK && fx != nil && len(fx.Writes) > 0 {
		clear(g.observations)
	}
	if canChange && fx.StateVersion != "" && c.CanonicalID != "" {
		g.hostStateVersions[c.CanonicalID] = fx.StateVersion
	}
	hasStateEffect := canChange && (fx.StateVersion != "" || fx.DiffReview != nil || len(fx.InspectedPaths) > 0 ||
		fx.Plan != nil || len(fx.ResearchSources) > 0 || len(fx.Validations) > 0 || len(fx.Writes) > 0 ||
		len(fx.AcceptanceCriteriaSatisfied) > 0 || len(fx.AcceptanceCriteriaWaived) > 0)
	if !hasStateEffect {
		return rep
	}
	durable := len(r.Writes) > 0 || fx.DiffReview != nil || fx.Plan != nil || len(fx.ResearchSources) > 0 ||
		len(fx.AcceptanceCriteriaSatisfied) > 0 || len(fx.AcceptanceCriteriaWaived) > 0 || len(fx.InspectedPaths) > 0
	if next := g.nextStateVersion(ev); next != g.stateVersion {
		g.stateVersion = next
		rep.StateChanged = true
		if durable && !g.flagged[c.ToolCallID] {
			g.resetProgress()
			rep.Reset = true
		}
	}
	return rep
}

// writeStateKey is "<kind>:<hash or empty>"; the kind defaults to missing
// for a null hash and file otherwise (RUNTIME §18.5).
func writeStateKey(kind string, hash *string) string {
	if kind == "" {
		kind = "file"
		if hash == nil {
			kind = "missing"
		}
	}
	if hash == nil {
		return kind + ":"
	}
	return kind + ":" + *hash
}

// recordWrite updates path's write-state history and reports whether the
// write returned the path to an earlier state (RUNTIME §18.5).
func (g *Guard) recordWrite(path, before, after string) bool {
	h := g.writeHistory[path]
	if len(h) == 0 || h[len(h)-1] != before {
		h = []string{before}
	}
	returned := slices.Contains(h[:len(h)-1], after)
	h = append(h, after)
	if len(h) > writeHistoryLimit {
		h = slices.Clone(h[len(h)-writeHistoryLimit:])
	}
	g.writeHistory[path] = h
	return returned
}

// recordWrites runs the write-hash cycle guard over one result's writes:
// any returning path gives one incident naming the sorted unique paths.
func (g *Guard) recordWrites(c Call, writes []port.Write) (string, bool) {
	var returned []string
	for _, w := range writes {
		if g.recordWrite(w.Path, writeStateKey(w.BeforeKind, w.BeforeHash), writeStateKey(w.AfterKind, w.AfterHash)) {
			returned = append(returned, w.Path)
		}
	}
	// Core fault: the write-hash cycle guard is off.
	if len(returned) == 0 || faults.On(faults.GuardSkipWriteHashCycle) {
		return "", false
	}
	return g.incident(c, "workspace content returned to an earlier hash for: "+sortedUnique(returned),
		"stop toggling content; inspect the failing evidence and choose one stable target state"), true
}

// recordValidations runs the repeated validation guard over one result's
// validations (RUNTIME §16.5 steps 5–6, §18.5).
func (g *Guard) recordValidations(c Call, vs []port.ValidationEntry, fp string) (string, bool) {
	var repeated []string
	for _, v := range vs {
		switch v.Status {
		case "failed":
			if g.validationFails.inc(v.ID+":"+fp) >= 3 {
				repeated = append(repeated, v.ID)
			}
		case "passed":
			g.validationFails.deletePrefix(v.ID + ":")
		}
	}
	// Core fault: the repeated validation guard is off.
	if len(repeated) == 0 || faults.On(faults.GuardSkipRepeatedValidation) {
		return "", false
	}
	return g.incident(c, "validation failed repeatedly without a workspace change: "+sortedUnique(repeated),
		"inspect the diagnostic, make a focused change, then run the validation again"), true
}

// sortedUnique joins the sorted unique values with ", ".
func sortedUnique(v []string) string {
	v = slices.Clone(v)
	canon.SortStrings(v)
	return strings.Join(slices.Compact(v), ", ")
}
