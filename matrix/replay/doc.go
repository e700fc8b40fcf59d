// Package replay builds the normalized transcript of a fixture run and its
// replay hash (DESIGN "Replay").
//
// The transcript is the ordered record of a run: model requests (offered
// tool names, tool-free or not, whether the task was in it), model
// responses, tool calls (model-facing name, call ID, arguments), results
// (ok, canonical tool ID, error code, normalized effects), state
// transitions, checkpoints with their structural audit, and the final
// section: status, error code, execution statuses, write evidence, the
// persisted checkpoint audits, the model-context audit (the count of
// observed checkpoint hashes, not the hashes), the approvals the harness
// answered and the harness's own typed snapshot of the final workspace.
//
// It excludes what differs between two isolated runs of a conformant host:
// absolute paths, times, durations, process IDs, host name and version,
// stderr, token counts (of prompts that hold the workspace root), the
// detail text of validations (command output, durations), tool result
// text (content and summary, which may quote the
// workspace root) and every host-defined opaque value (state versions,
// approval request IDs, diff hashes, checkpoint content hashes, and the
// host's hashes of symlinks and special entries; a symlink in the final
// snapshot carries its kind only, because a link to a $OUTSIDE/ target
// names an absolute path).
//
// # Normalization
//
// Two conformant hosts share a replay hash: the transcript keeps what the
// contract pins and drops, or maps to one canonical form, what it leaves
// to the host (hosts/wire/CONTRACTS.md "Host's choices"; each is a
// permitted variation in package hosts/variants, and the golden tests run
// them). Each rule and the sentence that allows it:
//
//   - Free text is left out: a result's content and summary, error
//     messages, the prose of warnings. "the wording of error messages,
//     except the exact strings, and of every other free-text field: a
//     result's summary ("never evidence") and the prose of warnings".
//   - JSON member order: the transcript holds parsed values and is hashed
//     in its JCS (RFC 8785) form, so the order a host wrote members in
//     never reaches it. "the member order and formatting of every JSON
//     object the host writes, content included".
//   - The host's own limits and truncation style (project.detect's
//     scan.maxDepth, a head-only or head-and-tail cut of a stream, one
//     spill file or two) live in content and artifactRef, which are left
//     out; what a limit does to the evidence (writes, inspected paths,
//     the final workspace) stays. "the limits a tool page leaves to the
//     host, checked against the bound the host declares"; the seed asks
//     only to "Bound stdout and stderr independently; preserve complete
//     output only through an artifact/spill port".
//   - Host-opaque identifiers are left out: stateVersion,
//     stateFingerprint, artifactRef, checkpointId, diffReview.diffHash,
//     resolvedPath, approval request IDs, and the host's hashes of
//     symlinks and special entries. "the forms of stateFingerprint,
//     stateVersion, artifactRef, checkpointId and store artifactRefs
//     (opaque; only their changes matter)"; "resolvedPath of write_file
//     and edit_file: any non-empty string".
//   - The order of a mutation's checks: a write_file or edit_file with a
//     matches_sha256 precondition that is stale (its hash is not the one
//     the harness's initial snapshot and the attested writes before it
//     give the target, or the target's content is unknown) answered with
//     INVALID_INPUT or PRECONDITION_FAILED is recorded with the error code
//     [CheckOrderCode], "INVALID_INPUT|PRECONDITION_FAILED". "a write_file
//     or edit_file whose target is not valid UTF-8 and whose
//     matches_sha256 precondition is also stale may answer INVALID_INPUT
//     or PRECONDITION_FAILED". The transcript does not hold the target's
//     bytes, so it merges the two codes for every stale precondition on an
//     existing file; matrix items 2 and 32 still check which code a valid
//     or invalid target gets. A fresh precondition, or a target known to
//     be missing, keeps the host's code.
//
// Kept because the contract pins them: validation IDs
// ("project.validate:<check>:<path>", tools/project.validate.md),
// inspectedPaths (CONTRACTS.md "Evidence types": "the requested path (.
// for the root) for list_files, read_file, glob_files, detect_project"),
// write evidence ("sorted by path"), error codes otherwise, trust.
//
// The tool profile is not normalized here: a host that offers more tools
// (the doubles host's fetch_url) shows them in every model request.
// Package matrix/compare compares hosts of different profiles on the
// tools all of them offer, and says so.
//
// The replay hash is "sha256:" and the hex SHA-256 of the transcript's JCS
// (RFC 8785) form, computed with core/canon:
//
//	t := replay.Build(rep)       // rep is a *lab.Report
//	h, _ := t.Hash()             // "sha256:…"
//	if d := replay.Diverge(a, b); d != nil { fmt.Println(d) }
//
// These hashes are conform's own; they need not equal the original lab's.
package replay
