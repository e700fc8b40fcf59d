package effects

import (
	"errors"
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// Workspace entry kinds of typed mutation evidence (CONTRACTS §7.5).
const (
	KindDirectory = "directory"
	KindFile      = "file"
	KindMissing   = "missing"
	KindOther     = "other"
	KindSymlink   = "symlink"
)

var entryKinds = []string{KindDirectory, KindFile, KindMissing, KindOther, KindSymlink}

// EntryKinds returns the workspace entry kinds in canonical order.
func EntryKinds() []string { return slices.Clone(entryKinds) }

// IsEntryKind reports whether kind is a workspace entry kind.
func IsEntryKind(kind string) bool { return slices.Contains(entryKinds, kind) }

// CheckWrite reports why w is not valid typed mutation evidence (CONTRACTS
// §7.6), or nil when it is:
//
//   - each hash is nil or a non-blank string;
//   - kind-less (legacy) form: not both hashes nil, and the hashes differ;
//   - typed form: both kinds are entry kinds; "directory" and "missing"
//     need a nil hash, "file", "symlink" and "other" a non-blank one; the
//     (kind, hash) states before and after differ.
//
// It does not look at Path; a result check also requires a non-blank path.
func CheckWrite(w port.Write) error {
	if w.BeforeHash != nil && canon.IsBlank(*w.BeforeHash) {
		return errors.New("beforeHash must be null or a non-blank string")
	}
	if w.AfterHash != nil && canon.IsBlank(*w.AfterHash) {
		return errors.New("afterHash must be null or a non-blank string")
	}
	if w.BeforeKind == "" && w.AfterKind == "" {
		if w.BeforeHash == nil && w.AfterHash == nil {
			return errors.New("kind-less evidence needs at least one hash")
		}
		if sameHash(w.BeforeHash, w.AfterHash) {
			return errors.New("kind-less evidence needs different hashes before and after")
		}
		return nil
	}
	if !IsEntryKind(w.BeforeKind) {
		return fmt.Errorf("beforeKind %q is not a workspace entry kind", w.BeforeKind)
	}
	if !IsEntryKind(w.AfterKind) {
		return fmt.Errorf("afterKind %q is not a workspace entry kind", w.AfterKind)
	}
	if err := checkState(w.BeforeKind, w.BeforeHash); err != nil {
		return fmt.Errorf("before: %w", err)
	}
	if err := checkState(w.AfterKind, w.AfterHash); err != nil {
		return fmt.Errorf("after: %w", err)
	}
	if w.BeforeKind == w.AfterKind && sameHash(w.BeforeHash, w.AfterHash) {
		return errors.New("typed evidence needs different states before and after")
	}
	return nil
}

// ValidWrite reports whether w is valid typed mutation evidence; see
// CheckWrite.
func ValidWrite(w port.Write) bool { return CheckWrite(w) == nil }

func checkState(kind string, hash *string) error {
	if kind == KindDirectory || kind == KindMissing {
		if hash != nil {
			return fmt.Errorf("kind %q needs a null hash", kind)
		}
		return nil
	}
	if hash == nil || canon.IsBlank(*hash) {
		return fmt.Errorf("kind %q needs a non-blank hash", kind)
	}
	return nil
}

func sameHash(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// An EntryState is one side of typed mutation evidence: an entry kind and
// its hash, where the empty Hash stands for JSON null. Build one with
// Missing, Directory, File, Symlink or Other.
type EntryState struct {
	Kind string
	Hash string
}

// Missing is the state of a path with no entry.
func Missing() EntryState { return EntryState{Kind: KindMissing} }

// Directory is the state of a directory (directories carry no hash).
func Directory() EntryState { return EntryState{Kind: KindDirectory} }

// File is the state of a regular file with content hash hash.
func File(hash string) EntryState { return EntryState{Kind: KindFile, Hash: hash} }

// Symlink is the state of a symbolic link with the host-defined
// deterministic hash hash.
func Symlink(hash string) EntryState { return EntryState{Kind: KindSymlink, Hash: hash} }

// Other is the state of a special entry with the host-defined deterministic
// hash hash.
func Other(hash string) EntryState { return EntryState{Kind: KindOther, Hash: hash} }

// NewWrite returns typed evidence that path changed from before to after.
// The result is not checked; pass it to CheckWrite when the inputs are not
// known to be valid.
func NewWrite(path string, before, after EntryState) port.Write {
	return port.Write{
		Path:       path,
		BeforeKind: before.Kind,
		BeforeHash: hashPtr(before.Hash),
		AfterKind:  after.Kind,
		AfterHash:  hashPtr(after.Hash),
	}
}

// CreateFile returns typed evidence of a new file: missing → file.
func CreateFile(path, afterHash string) port.Write {
	return NewWrite(path, Missing(), File(afterHash))
}

// ReplaceFile returns typed evidence of a changed file: file → file.
func ReplaceFile(path, beforeHash, afterHash string) port.Write {
	return NewWrite(path, File(beforeHash), File(afterHash))
}

// DeleteFile returns typed evidence of a removed file: file → missing.
func DeleteFile(path, beforeHash string) port.Write {
	return NewWrite(path, File(beforeHash), Missing())
}

func hashPtr(h string) *string {
	if h == "" {
		return nil
	}
	return &h
}
