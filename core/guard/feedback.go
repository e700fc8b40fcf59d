package guard

import (
	"strconv"
	"strings"
)

// The model-visible feedback texts of RUNTIME §35 (Appendix A.3, A.5–A.8
// and A.2), kept exact as the controller keeps the other Appendix A texts;
// the budget finalization text is conform's own (DECISIONS 19). Lines are
// joined with "\n".

func itoa[T int | int64](n T) string { return strconv.FormatInt(int64(n), 10) }

func joinInts(v []int64, sep string) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = itoa(n)
	}
	return strings.Join(s, sep)
}

// incidentFeedback is Appendix A.5.
func incidentFeedback(c Call, detail, strategy string) string {
	return strings.Join([]string{
		"[GALAXY NO-PROGRESS FEEDBACK - trusted runtime state]",
		"failure: " + detail,
		"tool: " + c.Name,
		"tool_call_id: " + c.ToolCallID,
		"next_strategy: " + strategy,
		"avoid: do not keep mutating or validating the same workspace state without new evidence",
	}, "\n")
}

// ordinalSuffix is the suffix of Appendix A.6: nd for 2, rd for 3, else th.
func ordinalSuffix(n int64) string {
	switch n {
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

// strictNudgeFeedback is Appendix A.6.
func strictNudgeFeedback(c Call, repetition int64) string {
	return strings.Join([]string{
		"[GALAXY OBSERVATION NUDGE - trusted runtime state]",
		"observation: " + c.canonicalOrName() + " is returning this exact result for the " + itoa(repetition) + ordinalSuffix(repetition) + " time.",
		"tool: " + c.Name,
		"tool_call_id: " + c.ToolCallID,
		"next_strategy: use the evidence already present, change the query or path, or perform the next required action",
		"avoid: re-requesting identical bounded observations",
	}, "\n")
}

// advisoryNudgeFeedback is Appendix A.7.
func advisoryNudgeFeedback(c Call, attempt int64, thresholds []int64) string {
	line := "observation: " + c.canonicalOrName() + " has been requested " + itoa(attempt) + " times; the retained result has not produced new work."
	if attempt == thresholds[0] {
		line = "observation: " + c.canonicalOrName() + " returned this exact result before; the retained copy is already in context."
	}
	return strings.Join([]string{
		"[GALAXY OBSERVATION NUDGE - trusted runtime state]",
		line,
		"tool: " + c.Name,
		"arguments_hash: " + c.ArgumentsHash,
		"tool_call_id: " + c.ToolCallID,
		"next_strategy: use the retained evidence, change the query or path, or perform the next required action",
		"advisory_thresholds: " + joinInts(thresholds, ", "),
		"avoid: re-requesting identical bounded observations",
	}, "\n")
}

// recoveryFeedback is Appendix A.3; failed lists "<name>: <summary>" lines.
func recoveryFeedback(maxEpisodes int, failed []string) string {
	lines := []string{
		"[GALAXY NO-PROGRESS RECOVERY - trusted runtime state]",
		"The no-progress episode budget (" + itoa(maxEpisodes) + ") is exhausted. This is the single recovery round before the run pauses.",
	}
	if len(failed) > 0 {
		lines = append(lines, "failed tools this round:")
		for _, f := range failed {
			lines = append(lines, "- "+f)
		}
	}
	lines = append(lines,
		"next_strategy: change the approach materially. Re-read the exact current file region before editing, use the full current content for a whole-file write, or inspect a different source.",
		"avoid: repeating the same tool with the same precondition or arguments; that pauses the run immediately.")
	return strings.Join(lines, "\n")
}

// FinalizationFeedback is Appendix A.8, added when evidence-ready
// finalization mode is entered.
const FinalizationFeedback = "[GALAXY FINALIZATION MODE - trusted runtime state]\n" +
	"All deterministic completion evidence is satisfied and no required action remains.\n" +
	"Return the final user-facing report now. State the verified result, changed files or behavior, validation run, and any residual risk.\n" +
	"No tool definitions will be available in the next turn. Do not request more inspection, validation, Git, checkpoint, or command calls."

// BudgetFinalizationFeedback is the feedback of the budget finalization
// turn, in conform's words (DECISIONS 19): it does not claim the evidence
// is complete.
const BudgetFinalizationFeedback = "[GALAXY FINALIZATION MODE - trusted runtime state]\n" +
	"The model turn budget is exhausted; this is the last turn of the run.\n" +
	"Return the final user-facing report now: state what is verified, what changed, which validation ran, and what evidence is still missing.\n" +
	"No tool definitions will be available in this turn. Do not request inspection, validation, Git, checkpoint, or command calls; the completion gate decides the outcome."

// finalizationRetryFeedback is Appendix A.2 for the ignored-calls issue.
func finalizationRetryFeedback(issue string) string {
	return strings.Join([]string{
		"[GALAXY FINALIZATION RETRY - trusted runtime state]",
		issue,
		"All completion evidence remains satisfied. Return only the plain-text user-facing final report.",
		"Do not emit tool-call syntax or request any additional action.",
	}, "\n")
}
