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
// The replay hash is "sha256:" and the hex SHA-256 of the transcript's JCS
// (RFC 8785) form, computed with core/canon:
//
//	t := replay.Build(rep)       // rep is a *lab.Report
//	h, _ := t.Hash()             // "sha256:…"
//	if d := replay.Diverge(a, b); d != nil { fmt.Println(d) }
//
// These hashes are conform's own; they need not equal the original lab's.
package replay
