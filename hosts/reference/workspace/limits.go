package workspace

// Limits of the workspace port (LAB_AND_HOSTS §10.1).
const (
	// DefaultPageLimit is the page size when a request gives none.
	DefaultPageLimit = 100
	// MaxPageLimit is the largest page; larger limits are clamped.
	MaxPageLimit = 1000
	// DefaultReadMaxBytes is the default and largest ReadText chunk.
	DefaultReadMaxBytes = 128 * 1024
	// MinReadMaxBytes is the smallest accepted ReadText chunk.
	MinReadMaxBytes = 4
	// MaxReadFileBytes is the largest file ReadText, Stat hashing and text
	// mutations accept.
	MaxReadFileBytes = 16 * 1024 * 1024
	// SearchChunkBytes is the read size of Grep's streaming scan.
	SearchChunkBytes = 64 * 1024
	// MaxSearchLineUnits bounds one scanned line in UTF-16 code units.
	MaxSearchLineUnits = 1024 * 1024
	// MaxTraversalEntries bounds the entries of one traversal.
	MaxTraversalEntries = 100_000
	// MaxListDepth is the deepest List request.
	MaxListDepth = 20
	// MaxQueryUnits bounds Glob patterns, Grep queries and Grep globs in
	// UTF-16 code units.
	MaxQueryUnits = 512
	// PreviewUnits bounds a Grep match preview in UTF-16 code units.
	PreviewUnits = 500
	// LockSuffix marks per-target mutation lock files; entries with this
	// suffix are hidden from traversal, snapshots and fingerprints.
	LockSuffix = ".galaxy-code.lock"
)

// ignoredTraversalDirs are the directory names traversal never enters or
// lists (LAB_AND_HOSTS §10.3).
var ignoredTraversalDirs = map[string]bool{".git": true, "node_modules": true, "dist": true, "coverage": true}

// TraversalExclusions returns the directory names that List, Glob and Grep
// skip, sorted. DetectProject discloses them in its warnings.
func TraversalExclusions() []string {
	return []string{".git", "coverage", "dist", "node_modules"}
}
