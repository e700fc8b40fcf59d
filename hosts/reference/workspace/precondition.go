package workspace

import "github.com/galaxy-stack/conform/hosts/reference/hosterr"

// Precondition kinds (CONTRACTS §6.1 MUTATION_PRECONDITION).
const (
	MustNotExist  = "must_not_exist"
	MatchesSHA256 = "matches_sha256"
)

// A Precondition guards a mutation; it is checked in the same serialized
// commit as the write. Kind is MustNotExist or MatchesSHA256; for
// MatchesSHA256, ContentSha256 must be 64 lowercase hex characters (the
// bare hash ReadText returns; DECISIONS 36).
type Precondition struct {
	Kind          string `json:"kind"`
	ContentSha256 string `json:"contentSha256,omitempty"`
}

// validate checks the precondition's shape before any file-system access.
func (p Precondition) validate() error {
	switch p.Kind {
	case MustNotExist:
		return nil
	case MatchesSHA256:
		if !isLowerHex64(p.ContentSha256) {
			return fail(hosterr.InvalidInput, "Content hash preconditions must be lowercase SHA-256 values.")
		}
		return nil
	}
	return fail(hosterr.InvalidInput, "Unknown mutation precondition kind '%s'.", p.Kind)
}

// check enforces the precondition against the current target state
// (LAB_AND_HOSTS §10.5).
func (p Precondition) check(cur targetState) error {
	if p.Kind == MustNotExist {
		if cur.exists {
			return fail(hosterr.PreconditionFailed, "The target already exists. Re-read the file, then use a matches_sha256 precondition with the current content hash for edits; must_not_exist only fits the first creation.")
		}
		return nil
	}
	if !cur.exists {
		return fail(hosterr.PreconditionFailed, "The target does not exist.")
	}
	if !cur.regular {
		return notRegular(cur.rel)
	}
	if actual := SHA256Hex(cur.data); actual != p.ContentSha256 {
		return fail(hosterr.PreconditionFailed, "Content hash mismatch; expected %s, but the current content hash is %s. Re-read the file to see its current content, then use this current hash as contentSha256 in your next matches_sha256 precondition.", p.ContentSha256, actual)
	}
	return nil
}

func notRegular(rel string) error {
	return fail(hosterr.InvalidInput, "Workspace text mutation requires a regular file: '%s'.", rel)
}
