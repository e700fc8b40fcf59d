package guard

import (
	"slices"

	"github.com/galaxy-stack/conform/core/faults"
)

// BeforeDispatch runs the pre-dispatch part of RUNTIME §15 for one call
// that passed preflight, after the controller has counted it (steps 1–3)
// and before it traces tool_call: the repeat fingerprint and cycle history
// (steps 4–5), the observation family (step 8) and the guards (step 9,
// §18.1–§18.4). Which guards run:
//
//   - a stable observation tool under the advisory policy: only the
//     advisory nudge (attempt in the thresholds; no episode) or block
//     (attempt beyond the last threshold; one episode);
//   - otherwise: the strict observation nudge (observation tools only;
//     one episode, the call still dispatches), then the identical-repeat
//     guard, then the cycle guard; the first blocking guard wins.
//
// A blocked call is not counted in its observation family, so every later
// identical request is blocked too. The controller must call AfterResult
// for every call that was not blocked and dispatched.
func (g *Guard) BeforeDispatch(c Call) Decision {
	fp := c.Name + ":" + c.ArgumentsHash + ":" + g.stateVersion
	if fp == g.previousFP {
		g.repeated++
	} else {
		g.repeated = 1
	}
	g.previousFP = fp
	g.cycle = append(g.cycle, cycleEntry{argumentsHash: c.ArgumentsHash, name: c.Name, stateVersion: g.stateVersion})
	if len(g.cycle) > cycleHistoryLimit {
		g.cycle = slices.Clone(g.cycle[len(g.cycle)-cycleHistoryLimit:])
	}

	family, isFamily := g.family(c)
	prior := g.observations[family]
	var d Decision
	if isFamily && g.advisory() {
		attempt := prior + 1
		thresholds := g.cfg.ObservationNudgeThresholds
		last := thresholds[len(thresholds)-1]
		decision := PolicyDecision{Attempt: attempt, CanonicalToolID: c.canonicalOrName(), Policy: g.policy(),
			Thresholds: slices.Clone(thresholds), ToolCallID: c.ToolCallID}
		switch {
		case attempt > last:
			d.Feedback = append(d.Feedback, g.incident(c,
				c.canonicalOrName()+" identical observation requested "+itoa(attempt)+" times, beyond the final advisory nudge threshold "+itoa(last),
				"act on the retained evidence or finish; identical observations are now blocked"))
			decision.Action = ActionObservationBlocked
			d.Policy = append(d.Policy, decision)
			d.Block = blockObservation(attempt)
		case slices.Contains(thresholds, attempt):
			d.Feedback = append(d.Feedback, advisoryNudgeFeedback(c, attempt, thresholds))
			decision.Action = ActionObservationNudge
			d.Policy = append(d.Policy, decision)
		}
		if d.Block != nil {
			delete(g.flagged, c.ToolCallID)
		}
		return d
	}
	if isFamily && prior >= int64(g.cfg.MaxObservationRepeats) {
		g.countEpisode(c.Turn)
		g.flagged[c.ToolCallID] = true
		d.Feedback = append(d.Feedback, strictNudgeFeedback(c, prior+1))
	}
	switch {
	// Core fault: the identical-repeat guard is off.
	case g.repeated > int64(g.cfg.MaxRepeatedToolRequests) && !faults.On(faults.GuardSkipIdenticalRepeat):
		d.Feedback = append(d.Feedback, g.incident(c,
			c.Name+" repeated with identical arguments and workspace state",
			"inspect a different source or choose a materially different tool"))
		d.Block = blockRepeat()
	default:
		// Core fault: the tool-cycle guard is off.
		if period := repeatedSuffixPeriod(g.cycle); period > 0 && !faults.On(faults.GuardSkipToolCycle) {
			d.Feedback = append(d.Feedback, g.incident(c,
				"a "+itoa(period)+"-call tool cycle repeated without semantic state progress",
				"stop repeating successful observations; if required evidence is already present, return the final report"))
			d.Block = blockCycle()
		}
	}
	if d.Block != nil {
		delete(g.flagged, c.ToolCallID)
	}
	return d
}

// family returns the observation family key of c (RUNTIME §15 step 8).
func (g *Guard) family(c Call) (string, bool) {
	if c.CanonicalID == "" || !IsStableObservation(c.CanonicalID) {
		return "", false
	}
	return c.CanonicalID + ":" + c.ArgumentsHash, true
}

// repeatedSuffixPeriod is RUNTIME §33.3: the first period p in 2…min(6,
// len/2) whose last p entries equal the p before them, else 0.
func repeatedSuffixPeriod(h []cycleEntry) int {
	largest := min(6, len(h)/2)
	for p := 2; p <= largest; p++ {
		if slices.Equal(h[len(h)-2*p:len(h)-p], h[len(h)-p:]) {
			return p
		}
	}
	return 0
}
