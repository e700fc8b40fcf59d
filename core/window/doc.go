// Package window is the context manager of the runtime port ("window" as
// in context window): token estimation, the token ledger, context profiles
// and budgets, pressure levels, the per-round assembly of the model's
// message list under the budget with eviction, summaries and compaction,
// the mandatory state document, and the bounding of tool output
// (CONTRACTS §12, RUNTIME §11 steps 5–9, §21.2, §28).
//
// The package does no I/O and reads no clock. A compaction's checkpoint
// comes from the caller through [Config.Checkpoint]; the provider's token
// count comes through the [CountFunc] given to [Manager.Fit]; ledger
// timestamps are passed in. Given the same calls, a [Manager] produces the
// same messages.
//
// # Per-turn call order
//
// The run controller owns a Manager per execution segment, created after
// prompt assembly with the system prompt, the formatted user task, the
// model's context window, the request's token profile and images, a
// checkpoint function and, on resume, the verified checkpoint:
//
//	m, err := window.New(window.Config{RunID: runID, TaskID: taskID, Profile: window.Balanced,
//		ContextWindow: caps.ContextWindow, SystemPrompt: prompt, GoalMessage: userTask,
//		Checkpoint: saveCompactionCheckpoint, Resume: verified})
//
// Then, on every turn (RUNTIME §11):
//
//  1. After a registry refresh that changed the prompt:
//     m.ReplaceSystemPrompt(prompt, turn, caps.SystemPromptUpdate == "in-history").
//  2. doc, _ := [MandatoryState](state); m.ReplaceMandatoryState(doc, turn).
//  3. prepared, err := m.Fit(window.PrepareInput{Tools: roundTools, Turn: turn}, count).
//     count calls the model's token counter with the messages, the tools and
//     the attachments; the controller wraps its failure as PROVIDER_ERROR
//     "Token counting failed: <msg>" before returning it. Fit compacts at
//     most once more on a provider overflow (checkpoint reason
//     provider_overflow) and recounts. A *[BudgetError] ends the run
//     CONTEXT_BUDGET with [BudgetError.RuntimeMessage] and no model request;
//     the checkpoint function's own errors (PERSISTENCE_ERROR,
//     CHECKPOINT_INCOMPATIBLE) come back unchanged.
//  4. The model round uses prepared.Messages, roundTools and
//     maxOutputTokens = prepared.Budget.RoundMaxOutput(caps.MaxOutputTokens).
//  5. m.CompleteRound(window.RoundRecord{Model: identityKey, Prepared: prepared,
//     Thinking: thinking, VisibleOutput: content, Turn: turn, Usage: usage,
//     Timestamp: clock.Timestamp()}) records the ledger entry.
//  6. Each tool result's content goes through [BoundToolOutput] with the
//     result's outputLimits or [DefaultLimits] (spilling through the host's
//     artifact store when there is one) before it becomes an [Observation].
//  7. After the batch: m.AddInteraction(assistant, observations, turn); a
//     text-only round: m.AddInteraction(assistant, nil, turn). Runtime
//     feedback (recovery, finalization retry, approval decisions):
//     m.AddFeedback(text, turn).
//  8. Before a tool-free finalization retry: m.ProjectForFinalization().
//
// The checkpoint function is called inside Prepare with the reason and
// turn; the controller transitions to compacting, saves a checkpoint whose
// totals.compactionCount is m.Compactions()+1 with the phase of the
// interrupted state, transitions back, and returns the saved checkpoint
// and the store's artifact reference (RUNTIME §21.2).
//
// # Budgets and pressure
//
// [NewBudget] derives the hard input limit, the soft target and the
// tighten, evict and compaction thresholds from a [Profile] and a context
// window; [Budget.Classify] maps a token count to a [Pressure] (normal,
// tighten, evict, compact, blocked).
//
// # Assembly and compaction
//
// [Manager.Prepare] compacts first when forced, when the raw context is at
// the compaction threshold (context_threshold), when accumulated tool
// output dominates it (tool_result_pressure), or after the profile's tool
// round limit (tool_round_limit). Compaction keeps the policy and task
// items, adds the checkpoint (which carries the accumulated writes,
// validations and diff review) as a mandatory item, keeps recent exact
// file, diff and research evidence, and summarises the rest. Assembly then
// keeps every P0 item and fills the soft target with P1 and P2 items by
// utility per token; P2 items that do not fit are folded into one
// summary. [Prepared] reports what happened in Steps, Selected, Evicted
// and Summarized.
//
// The rule-by-rule map from the spec to the tests is testdata/coverage.md.
package window
