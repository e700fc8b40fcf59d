// Package oracle checks one fixture run against the fixture's expected
// block, exactly as the original lab's oracle does (LAB §4), plus the three
// checks that always run.
//
//	obs := &oracle.Observed{Status: oracle.StatusOf(result.State), ...}
//	for _, f := range oracle.Check(fx, obs) {
//		fmt.Println(f) // fixtures/x.json: expected.toolSequence: expected [a b], got [a]
//	}
//
// The runner fills an [Observed] record from one fixture run (every
// execution, resumes included) and the harness's own workspace snapshots;
// [Check] returns the failed assertions in the original oracle's order.
// No failures means the fixture passed.
//
// # Assertions
//
// Each key of fixture.Expected is checked only when the fixture declares it,
// except status, which defaults to "completed" (LAB §4.1). In order:
//
//   - status, errorCode (a declared null asserts no error), executionStatuses
//     and toolSequence (exact, ordered);
//   - toolResults: the counts must be equal; then, index by index over the
//     results both lists have, every member the entry declares
//     (toolName, canonicalToolId, ok, errorCode, summaryIncludes as a
//     substring; contentIncludes in the content as sent or inside one of
//     its string values when it is JSON, so that escaping never decides;
//     contentValues and contentHas
//     structurally, on the content parsed as JSON and addressed by JSON
//     Pointer, so that member order and formatting never decide);
//   - files: absent (no entry of any kind), readable, content (whole file),
//     contentIncludes, unchanged (same kind and hash in the initial and
//     final snapshot);
//   - allowedChanges: the declared list, sorted, must equal the changed paths
//     of the harness's snapshots exactly (directories count as entries);
//   - write evidence (always, for a completed run; see below);
//   - finalResponseIncludes / finalResponseExcludes (substrings),
//     checkpointReasons (exact), completionIssuesInclude (some issue of some
//     rejection contains each fragment), contextPressures (exact),
//     modelRequestCount, retryDelaysMs (exact), allModelStepsConsumed;
//   - controls (always): every declared control fired;
//   - minTraceEvents (at least), traceKindsInclude and transitionsInclude
//     (each entry present; transitions are written "from->to");
//   - checkpoint integrity (always): every persisted checkpoint passed the
//     core's integrity check.
//
// # Write evidence
//
// When the final status is completed, every path whose kind or hash differs
// between the initial and the final snapshot must be backed by the final
// result's write evidence: the latest write for that path must end in the
// snapshot's final kind and, for a file, with the snapshot's content hash.
// A changed directory without a write of its own is covered by a write
// below it. Hashes are compared without a "sha256:" prefix and
// case-insensitively; symlink and special-entry hashes are host-defined
// (CONTRACTS §7.6) and are not compared, only their kinds.
//
// # Failures
//
// A [Failure] names the assertion by its JSON path in the fixture
// ("expected.toolResults[2].errorCode"; "controls", "checkpointIntegrity" and
// "writeEvidence" for the checks that always run), what was expected and
// what was observed, and carries the original lab's message (LAB §4) for
// reports. A path of expected.files that the runner did not read (absent
// from Observed.Files) fails as unreadable with the code NOT_OBSERVED rather
// than passing. Its text is deterministic: lists keep their order where order is
// asserted and are sorted where a set is, and long texts are cut.
//
// # Where conform differs from the original
//
//   - expected.files reads whole files, not a 128000-byte prefix, and absent
//     means no entry of any kind (DECISIONS 52).
//   - Symlink and special-entry hashes in write evidence are not compared
//     with the harness's own hashes, which are computed differently; their
//     kinds are.
//   - Checkpoint integrity reports each failing checkpoint, not only that
//     one failed.
package oracle
