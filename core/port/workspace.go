package port

// Workspace verifier shapes (CONTRACTS §13.8). The core's verifier port
// (run.Verifier), the host protocol's workspace/fingerprint and the
// reference host's workspace package all use these declarations.

// An ActiveFile is a task-relevant path a workspace fingerprint binds
// beyond the main walk: Kind (file, directory, symlink, other, missing or
// "") and ContentHash (bare or "sha256:"-prefixed hex, any case; nil, JSON
// null, when there is none) are what the run last observed or wrote there.
// The core passes the union of its inspected and written paths, each with
// its latest afterKind and afterHash.
type ActiveFile struct {
	Path        string  `json:"path"`
	Kind        string  `json:"kind,omitempty"`
	ContentHash *string `json:"contentHash"`
}

// A WorkspaceState is a captured fingerprint with the inputs it binds
// (CONTRACTS §13.8 capture output). StateFingerprint is an opaque,
// deterministic digest.
type WorkspaceState struct {
	ActiveFiles       []ActiveFile `json:"activeFiles"`
	DirtyStateSummary *string      `json:"dirtyStateSummary"`
	StateFingerprint  string       `json:"stateFingerprint"`
}

// A Verification is a verifier's answer on resume (CONTRACTS §13.8 verify
// output): the fingerprint of the workspace as it is now and whether it
// equals the captured one.
type Verification struct {
	CurrentFingerprint string `json:"currentFingerprint"`
	Matches            bool   `json:"matches"`
}
