// Package workspace is the reference host's workspace: a Go library over a
// real directory that implements the workspace port of the original
// runtime (LAB_AND_HOSTS §9, §10), its mutation snapshotter (§14), its
// relevant-workspace fingerprint (§15) and project detection (§19.2). The
// reference host's protocol layer builds the workspace tools on it; this
// package speaks no protocol.
//
//	root, err := workspace.Open(dir)
//	before, err := root.Snapshot(ctx, workspace.DefaultSnapshotOptions())
//	res, err := root.WriteText(ctx, workspace.WriteRequest{
//		Path:         "src/a.ts",
//		Content:      "export {}\n",
//		Precondition: workspace.Precondition{Kind: workspace.MustNotExist},
//	})
//	after, err := root.Snapshot(ctx, workspace.DefaultSnapshotOptions())
//	diff, err := workspace.DiffSnapshots(before, after) // diff.Writes covers res.Writes
//
// # Paths
//
// Every path is workspace-relative with "/" separators ("." is the root).
// A NUL byte or a backslash is INVALID_INPUT; an absolute path, a drive
// letter or a ".." that climbs out of the root is PERMISSION_DENIED. Reads
// follow symlinks that stay inside the root and refuse ones that leave it
// (any component, the final one included). Mutations follow no symlink at
// all.
//
// # Errors
//
// Every failure is an *Error carrying a port error code (CONTRACTS §2) and
// the original port's model-visible message; [CodeOf] maps any error to a
// code and the Err* sentinels match codes with errors.Is.
//
// # Hashes
//
// Port results (ReadText, Stat, WriteText, ApplyPatch, Grep) carry bare
// lowercase hex SHA-256 of the raw bytes, which is what a matches_sha256
// precondition compares. Typed mutation evidence (port.Write) carries
// "sha256:"-prefixed hashes: file contents for files, sha256("symlink\0" +
// target) for symlinks, sha256("other\0" + mode) for special entries, null
// for directories and missing paths.
//
// # Concurrency
//
// Mutations are serialized by the Root and, across processes, by a
// per-target lock file (suffix [LockSuffix], hidden from every traversal).
// Snapshot and Fingerprint take the same lock, so a capture never sees half
// of one of the Root's own mutations.
package workspace
