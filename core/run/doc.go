// Package run is the run controller of the core runtime (RUNTIME §2–§23,
// §26–§30, CONTRACTS §12): it validates a run request and assembles its
// prompt with core/prompt, probes the model,
// prepares each round's context under the token budget, drives model rounds
// with bounded retries, preflights and dispatches tool call batches through
// the host's tool executor under the no-progress guards, applies
// host-attested effects, enters tool-free finalization, decides completion with the deterministic gate, saves and resumes
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
// # No-progress guards, finalization and context
//
// The guards and finalization readiness are core/guard, called at the
// positions of RUNTIME §11 and §15 (guards.go, finalize.go): BeforeDispatch
// for each preflighted call, AfterResult once its effects are applied,
// AfterBatch after each batch, Export into every checkpoint and Restore on
// resume. The model context is a core/window Manager per execution segment
// (context.go): the mandatory state document before each request, Fit for
// preparation, the provider token count and the forced provider_overflow
// compaction, CompleteRound for the token ledger, BoundToolOutput for every
// dispatched result. Compactions save a main-context checkpoint through
// the compacting state (compactionCheckpoint).
//
// # Choices recorded here
//
//   - The request is core/prompt's Request (embedded in [Request], with the
//     budget typed here): ParseRequest/ValidateRequest give every rule of
//     RUNTIME §4.2–§4.3 with the original's messages, and a rejection
//     becomes this package's *RequestError with the same kind and message.
//     prepare.go follows core/prompt's call order: ContractForRequest,
//     UserTaskForRequest, CheckCommandEnvironment against the active tool
//     set, Assemble with its registry snapshot hash (promptVersion
//     conform-single/1.0.0), NewIntegrity into every checkpoint and
//     prompt_snapshot; a lazy activation re-checks, re-assembles, updates
//     the integrity values and traces a new prompt_snapshot.
//   - Budget and checkpoint stay this package's (core/prompt passes them
//     through as JSON); a budget member of the wrong JSON type is refused
//     as a TypeError before the RUNTIME §5 checks run.
//   - A model without a token counter is counted by the context manager's
//     estimator.
//   - Tool output is bounded without a spill adapter (the tool executor port
//     has none), so a truncated result points to pagination.
//   - A failed-mutation family's workspace state is a fresh capture when a
//     verifier exists; a failing capture falls back to the state version
//     (DECISIONS 5).
//   - The dispatch guard and the deadline are measured on the clock port as
//     well as armed as Timers: with a fake clock that moved past either,
//     the earlier of the two wins, as the earlier timer would have.
//   - A terminal transition the table refuses is forced (DECISIONS 13).
//   - The pause checkpoint failure keeps the underlying code (DECISIONS 12).
//   - Plan mode and compactOnStart are refused at Start (DECISIONS 15).
//   - No alias table: unknown names fail preflight (DECISIONS 7).
//   - A model identity is keyed once per segment (prepare); rounds compare
//     the done event's identity with that key.
//
// # Coverage of RUNTIME by named specs
//
// The Ginkgo specs of this package are named by behaviour; this table maps
// each section (and each bullet of §36 that belongs to these sections) to
// them. "S" is a Describe, "›" an It or table entry.
//
//	§2, §10.1 launch       request_test › refuses a second active run with the same ID; controller API in every spec
//	§3 tool-set policy     request_test › refuses an active command.run…; effects_test › fails TOOL_EXECUTION on effects the tool did not declare
//	§4 request             request_test › refuses legacy prompt fields first; JSON request messages (9 entries); › reports the first unknown key in the caller's key order…; › refuses text that is not one JSON object…; checks typed requests (rules owned and fully covered by core/prompt's validate_test)
//	§5 budget              request_test › applies the original defaults; floors positive numbers; invalid retry delay lists (6); other budget errors (7); › decodes the budget for Start…
//	§6 identifiers         batch_test › runs same-name calls in order… (idempotency keys); trace_test › correlates every event
//	§7 result              every spec asserts Status/ErrorCode; checkpoint_test › pauses… (error null, checkpoint)
//	§8 error codes         asserted per spec; §8.2 BATCH_BLOCKED_BY_APPROVAL in approval_test
//	§9 state machine       states_test S the state machine (4); smoke_test › completes with exactly the original transitions
//	§10.3 prepare          request_test › refuses a model without verified streaming…; refuses an active command.run…
//	§11 turn loop          smoke_test; complete_test › fails MAX_TURNS when the turns run out
//	§11.1 adoption         lazy_test S lazy registry expansion (2 entries: in-place, in-history; › does not re-assemble when the registry hash is unchanged); effects_test/batch_test (policy change, activated in the same batch)
//	§12 rounds             round_test S model rounds and retries (9 Its, 14 stream entries)
//	§13 preflight          batch_test › preflight failures execute nothing (3); refuses duplicate batch ids; refuses a call to a tool activated…; refuses a toolCallId reused
//	§14 dispatch policy    batch_test › continues a batch after a structured failure; stops at an adapter throw; approval_test › blocks the rest of a batch
//	§15 per-call pipeline  batch_test (idempotency, timeoutMs); effects_test › refuses a result whose canonical ID…; refuses a workspace mutation in review_only
//	§16 effects            effects_test S effects (13 Its)
//	§20.2 gate             gate_test S the completion gate (8 Its, 10 documentation paths)
//	§20.3 attempt          complete_test S the completion attempt (7; agent-profile inspection default from the request snapshot, 3 entries)
//	§21 checkpoints        checkpoint_test S checkpoints, pause and resume (8 Its, 7 refusal entries)
//	§22 control            round_test › cancels during the backoff; ends cancelled… streaming round; checkpoint_test › fails DEADLINE_EXCEEDED…; approval_test › waits… paused
//	§23 approvals          approval_test S approvals (3)
//	§26 trace              trace_test S the trace (2); complete_test › a trace that cannot be finalized (2); lazy_test (two prompt_snapshot payloads)
//	§27 events             round_test › forwards every stream event as a model event; events asserted in approval/effects/complete specs
//	§29 dispatch guard     batch_test › fails TOOL_TIMEOUT… clock port; …guard timer fires on a hung call
//	§30 generated paths    states_test S generated workspace paths; effects_test › drops generated-path writes
//	§31 citations          gate_test › extracts citations…; checks research evidence and citations
//
//	§17 state version      guard_test › records the no-progress counters…; › does not let repeated criterion marks… manufacture progress
//	§18.2 observation      guard_test S observation guards (7 Its: advisory interleaved, 3/5/8/9 thresholds, configured thresholds, strict 4/4/3, strict pause, recovery completes, one episode per round)
//	§18.3 repeat/cycle     hosts/reference controller_test › blocks the identical stale edit…; guard_test S tool cycles (2); guard_test › pauses seven failing stale edits…; › falls back to the state version… (DECISIONS 5)
//	§18.4 incidents        asserted through the synthetic results and episodes of the specs above
//	§18.5 write/validation guard_test S write-hash cycles (3); › pauses six failing validations…
//	§18.6 episodes         guard_test › pauses… after 6 executor calls (recovery round then pause reason); finalize_test › skips the post-batch finalization check…
//	§19.1–§19.3            finalize_test › enters the tool-free turn once the evidence is ready…; › fails INVALID_MODEL_STREAM…; › turns finalization off after a rejected report…
//	§19.4 budget turn      finalize_test S the budget finalization turn (2); guard_test › …manufacture progress (maxTurns=8)
//	§11 resume boundary    finalize_test › derives the finalization boundary on a verified resume…
//	§21 no-progress state  guard_test › records the no-progress counters…; › rebuilds the cycle history…; › keeps the incomplete cycle…; › refuses to resume with other thresholds
//	§28 mandatory state    context_test › places the mandatory state document in every request; › sends the request right after a provider_overflow compaction without the mandatory state… (as the original); finalize_test (phase finalizing, nextAction)
//	§11 step 8 attachments attachments_test › sends the request's attachments with every request…; › resends them on a retried round; › sends none…
//	C§12.2–§12.3 ledger    context_test › reports context_pressure and token_ledger events…
//	C§12.4 pressure, CONTEXT_BUDGET  context_test › …MANDATORY_CONTEXT_TOO_LARGE…; › fails CONTEXT_BUDGET on a persistent overflow…; › fails PROVIDER_ERROR when token counting fails
//	C§12.5 compaction      context_test › checkpoints provider_overflow…; › compacts repeatedly…; › checkpoints tool_result_pressure…; › …store commits then throws; › …capture fails during a compaction…; › restores the compaction count…
//	C§12.6 bounding        context_test S tool-output bounding (4)
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
// extraction (gate_test); completion-gate-scope (gate_test); lazy registry
// expansion: two prompt_snapshot payloads whose promptHash, systemPromptHash
// and registrySnapshotHash differ, the second request's system prompt
// stating the new registry hash, tools lazy_read and lazy_search
// (lazy_test; each shown to fail when the re-assembly or the integrity
// update is skipped). Part 2: write-hash
// cycles with the 6-call pause, maxNoProgressEpisodes 1 and the resume
// (guard_test); seven stale edits; interleaved reads; strict 4/4/3, strict
// pause and recovery; two blocked observations in one round; advisory
// 3/5/8/9; thresholds [5] on resume; six failing validations; alternating
// probes and their resume; repeated marks (MAX_TURNS); one and two
// finalization tool calls (finalize_test); overflow once, repeated overflows
// with counts 1–3 and phases executing/validating/reviewing, two overflows
// then resume, hard exhaustion resuming into a tool-free turn, the 80k
// tool_result_pressure output, the 300k goal, the commit-then-throw
// compaction store, the failing compaction capture (context_test and
// finalize_test); the identical stale edit against the reference host with
// its inode (hosts/reference/controller_test.go).
//
// The open question of core/guard/testdata/coverage.md (write-hash cycle:
// 6 or 8 executor calls) is settled by guard_test: 6, as RUNTIME §36 says.
// After the 4th write resets the episodes, the two failing calls that
// follow have the same arguments on an unchanged state version, so the
// identical-repeat guard blocks the 7th and 8th before dispatch.
//
// # Not ported here
//
//   - §24 plan mode and §25 manual compaction: deferred by name (DECISIONS
//     15); requests asking for them are refused. So is the compaction runtime
//     event, which only manual compaction emits.
//   - Attachments are validated, checked against capabilities, priced by
//     the context manager as images of unknown size and sent with every
//     round request, but not passed to the provider token count: the
//     counter port takes only messages and tools, and widening its method
//     would break its implementations, so the count omits them.
//   - Vision calibration (CONTRACTS §12.2) is not fed: the model port
//     reports no prompt-token delta for images.
//   - The deadline timer of §10.1 is armed but its wall-clock firing is not
//     exercised by a spec (the clock-port check is).
//   - The exact sequence numbers of the "repeated marks" bullet (validation
//     sequence 4, diff 6) depend on the original script, which the fact
//     sheets do not give; the spec asserts the MAX_TURNS outcome and the
//     single validation record.
package run
