// Package reference is conform's reference host: a real, conformant tool
// executor of the AI Coder runtime, working on a real directory. It shows
// what passing the matrix looks like, and its mutants (package mutants),
// built from [Options.Faults], show that the matrix can fail.
//
// A [Host] speaks the host protocol of package wire (PROTOCOL.md there):
// initialize builds the active tool set from the catalog the harness sends
// (bootstrap tools plus lazy activation through catalog.search), and every
// tool/execute is routed, validated against the tool's input schema,
// checked against the idempotency record, submitted to the core's mode
// and approval policy (asking the harness with approval/request), run,
// validated against the output schema and answered with the CONTRACTS §7.5
// envelope. Mutating tools are bracketed by typed workspace snapshots, the
// only source of write evidence; a result the host cannot vouch for is an
// unknown outcome, never a retryable result.
//
// Tools: workspace.list/read/grep/glob/write/edit and project.detect over
// package workspace; command.run and project.validate over package command;
// git.exec over the real git executable; research.fetch and research.search
// over package research (a real HTTP adapter: fetch is backed unless the
// adapter is disabled, search only with a configured endpoint, and both are
// active only where the tool profile grants network.outbound);
// catalog.search; task.checkpoint.
// The checkpoint store, the trace, task state, idempotency records and
// command spill files live in the session's storeDir, written durably, so
// that a fresh host process started on the same storeDir resumes them.
//
// The host is served by `conform host serve reference`; tests may also use
// it in process through [New] and kit.Serve.
package reference
