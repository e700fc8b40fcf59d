package workspace

import (
	"os"
	"strings"
)

// Faults are the seams where a mutant of the reference host breaks one
// workspace guarantee (S000 "Required host guarantees", Workspace). The
// zero value switches none on and is the conformant workspace; only the
// mutants set a field.
type Faults struct {
	// FollowSymlinkEscapes lets reads follow a symlink whose target lies
	// outside the root.
	FollowSymlinkEscapes bool
	// AcceptDotDot accepts ".." segments that climb out of the root.
	AcceptDotDot bool
	// IgnoreMustNotExist lets a must_not_exist write replace an existing
	// file.
	IgnoreMustNotExist bool
	// ReplaceInodeOnFailure rewrites the target (same bytes, new inode)
	// before a failed text mutation reports its failure.
	ReplaceInodeOnFailure bool
	// DecodeInvalidUTF8 decodes invalid UTF-8 lossily (U+FFFD) in reads and
	// text mutations instead of refusing it.
	DecodeInvalidUTF8 bool
	// IgnorePageLimit answers List with a full page whatever limit was
	// asked for.
	IgnorePageLimit bool
	// MetadataFingerprint binds regular files into the relevant-workspace
	// fingerprint by size and modification time instead of content.
	MetadataFingerprint bool
	// IncompleteScanAsComplete reports a project scan that hit a limit as
	// complete, without its limit warnings.
	IncompleteScanAsComplete bool
}

// OpenWithFaults opens the workspace rooted at dir as Open does, with the
// given faults switched on. Only the mutants of the reference host use it.
func OpenWithFaults(dir string, f Faults) (*Root, error) {
	r, err := Open(dir)
	if err != nil {
		return nil, err
	}
	r.faults = f
	return r, nil
}

// replaceInode rewrites the existing regular target with its own bytes
// through a temporary file and a rename, so that only its inode changes:
// the ReplaceInodeOnFailure fault.
func replaceInode(abs string, cur targetState) {
	tmp, err := writeTemp(abs, cur.rel, cur.data, cur.perm)
	if err != nil {
		return
	}
	if err := os.Rename(tmp, abs); err != nil {
		_ = os.Remove(tmp)
	}
}

// lossyUTF8 decodes data as the DecodeInvalidUTF8 fault does: every
// invalid sequence becomes U+FFFD.
func lossyUTF8(data []byte) []byte {
	return []byte(strings.ToValidUTF8(string(data), "\uFFFD"))
}
