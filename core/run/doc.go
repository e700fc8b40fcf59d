// Package run is the run controller of the core runtime (RUNTIME §2–§16,
// §20–§23, §26, §27, §29, §30): it validates a run request, probes the model,
// drives model rounds with bounded retries, preflights and dispatches tool
// call batches through the host's tool executor, applies host-attested
// effects, decides completion with the deterministic gate, saves and resumes
// checkpoints, and reports runtime events and a correlated trace.
//
//	c := run.New(run.Deps{Model: m, Tools: host, Store: st, Verifier: v, Trace: tr, Clock: clk})
//	h, err := c.Start(req)          // synchronous *RequestError on a bad request
//	c.Pause(h.RunID, "")            // or Cancel, ResolveApproval, from any goroutine
//	res := h.Wait()                 // completed, failed, cancelled or paused
//	h2, _ := c.Resume(req)          // from the store's latest trusted checkpoint
//
// [Run] is the one-call form for callers that only need the result.
//
// A run is a deterministic function of its request and its ports: time, IDs,
// sleeps, timers, the model, the tools, the store, the verifier and the trace
// all come from [Deps].
//
// # Part 2 seams
//
// No-progress guards (§17–§18), finalization (§19), context pressure and
// compaction (§28, CONTRACTS §12) are part 2 of the controller. Their call
// sites exist in the turn loop and the per-call pipeline (seams.go) and
// behave as a runtime without those features: no guard blocks, no
// finalization turn, every request carries the whole conversation, tool
// output is not bounded, and a checkpoint's no-progress state is the policy
// with zero counters.
//
// # Choices recorded here
//
//   - Prompt assembly is a stand-in (prompt.go, PromptVersion) until the core
//     prompt assembler exists: it embeds every value the compatibility hashes
//     must react to, in conform's own words.
//   - The dispatch guard and the deadline are measured on the clock port as
//     well as armed as Timers: with a fake clock that moved past either,
//     the earlier of the two wins, as the earlier timer would have.
//   - A terminal transition the table refuses is forced (DECISIONS 13).
//   - The pause checkpoint failure keeps the underlying code (DECISIONS 12).
//   - Plan mode and compactOnStart are refused at Start (DECISIONS 15).
//   - No alias table: unknown names fail preflight (DECISIONS 7).
//   - Unknown request keys are reported in sorted order, not the caller's
//     key order (a Go map has none).
//
// # Coverage of RUNTIME by named specs
//
// The Ginkgo specs of this package are named by behaviour; this table maps
// each section (and each bullet of §36 that belongs to these sections) to
// them. "S" is a Describe, "›" an It or table entry.
//
//	§2, §10.1 launch       request_test › refuses a second active run with the same ID; controller API in every spec
//	§3 tool-set policy     request_test › refuses an active command.run…; effects_test › fails TOOL_EXECUTION on effects the tool did not declare
//	§4 request             request_test › refuses legacy prompt fields first; JSON request messages (9 entries); checks typed requests
//	§5 budget              request_test › applies the original defaults; floors positive numbers; invalid retry delay lists (6); other budget errors (7)
//	§6 identifiers         batch_test › runs same-name calls in order… (idempotency keys); trace_test › correlates every event
//	§7 result              every spec asserts Status/ErrorCode; checkpoint_test › pauses… (error null, checkpoint)
//	§8 error codes         asserted per spec; §8.2 BATCH_BLOCKED_BY_APPROVAL in approval_test
//	§9 state machine       states_test S the state machine (4); smoke_test › completes with exactly the original transitions
//	§10.3 prepare          request_test › refuses a model without verified streaming…; refuses an active command.run…
//	§11 turn loop          smoke_test; complete_test › fails MAX_TURNS when the turns run out
//	§12 rounds             round_test S model rounds and retries (9 Its, 14 stream entries)
//	§13 preflight          batch_test › preflight failures execute nothing (3); refuses duplicate batch ids; refuses a call to a tool activated…; refuses a toolCallId reused
//	§14 dispatch policy    batch_test › continues a batch after a structured failure; stops at an adapter throw; approval_test › blocks the rest of a batch
//	§15 per-call pipeline  batch_test (idempotency, timeoutMs); effects_test › refuses a result whose canonical ID…; refuses a workspace mutation in review_only
//	§16 effects            effects_test S effects (13 Its)
//	§20.2 gate             gate_test S the completion gate (8 Its, 10 documentation paths)
//	§20.3 attempt          complete_test S the completion attempt (7)
//	§21 checkpoints        checkpoint_test S checkpoints, pause and resume (8 Its, 7 refusal entries)
//	§22 control            round_test › cancels during the backoff; ends cancelled… streaming round; checkpoint_test › fails DEADLINE_EXCEEDED…; approval_test › waits… paused
//	§23 approvals          approval_test S approvals (3)
//	§26 trace              trace_test S the trace (2); complete_test › a trace that cannot be finalized (2)
//	§27 events             round_test › forwards every stream event as a model event; events asserted in approval/effects/complete specs
//	§29 dispatch guard     batch_test › fails TOOL_TIMEOUT… clock port; …guard timer fires on a hung call
//	§30 generated paths    states_test S generated workspace paths; effects_test › drops generated-path writes
//	§31 citations          gate_test › extracts citations…; checks research evidence and citations
//
// §36 bullets (runtime.test.ts) ported: retry feedback/think (round_test, 2
// Its); retry ladder, skip, cancel in backoff, invalid delays (round_test,
// request_test); operational/terminal transitions (states_test); forged
// effects, adapter throw, failed result with writes, malformed write evidence
// and its resume, capture failure (effects_test, batch_test); two calls
// correlated, duplicate ids, over budget, lazily activated tool, structured
// failure continues, throw stops (batch_test); pending approval blocks the
// batch (approval_test); blank completed response (round_test); legacy
// fields, interactive command, command.run without hostEnvironment
// (request_test); git.exec observation kind diff, validation fail/fail/pass
// (effects_test); trace flush or emit failure (complete_test); write then
// premature reports (complete_test, 3 rejections); report stored once
// (complete_test); delete writes (effects_test); pause then resume with a
// fresh controller, credentials, promptHash, untrusted caller checkpoint,
// changed prompt (checkpoint_test); final-report store commits then throws
// (complete_test); cancel during a streaming round (round_test); citation
// extraction (gate_test); completion-gate-scope (gate_test).
//
// # Not ported here
//
//   - §17–§19 and §28 (no-progress guards, finalization, mandatory state):
//     part 2, behind the seams above; so are the §36 bullets on write-hash
//     cycles, stale edits, interleaved reads, advisory and strict thresholds,
//     alternating probes, repeated validation failures, finalization tool
//     calls and "repeated marks do not manufacture progress".
//   - CONTRACTS §12 context (token counting, ledger entries, pressure,
//     compaction, output bounding, provider overflow, CONTEXT_BUDGET): part 2;
//     the ledger here only records the turn of the last completed round.
//     So are the §36 bullets on overflow checkpoints, tool_result_pressure,
//     the 300k-character goal and the verifier failing during compaction.
//   - §24 plan mode and §25 manual compaction: deferred by name (DECISIONS
//     15); requests asking for them are refused.
//   - Lazy registry expansion re-assembles the prompt and traces a new
//     prompt_snapshot (prepare.go refreshToolSet), but the §36 bullet's
//     assertion on the second request's system prompt is not yet a spec.
//   - Attachments: validated and checked against capabilities, never sent
//     (the round request port has no attachment field).
//   - The deadline timer of §10.1 is armed but its wall-clock firing is not
//     exercised by a spec (the clock-port check is).
package run
