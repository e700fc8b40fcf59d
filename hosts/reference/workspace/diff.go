package workspace

import (
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// MaxDurableMutations bounds the write evidence of one diff.
const MaxDurableMutations = 10_000

// MaxReportedDerivedPaths bounds the paths listed in DerivedMutations.
const MaxReportedDerivedPaths = 32

// An ObservedMutation is one changed path between two snapshots. Kinds are
// file, directory, symlink, other or missing; a fingerprint is nil on a
// missing side.
type ObservedMutation struct {
	AfterFingerprint  *string `json:"afterFingerprint"`
	AfterKind         string  `json:"afterKind"`
	BeforeFingerprint *string `json:"beforeFingerprint"`
	BeforeKind        string  `json:"beforeKind"`
	EvidenceClass     string  `json:"evidenceClass"`
	Path              string  `json:"path"`
}

// A Diff is the difference between two snapshots: every observed mutation
// in path order, the write evidence of the durable ones, and the after
// snapshot's state version.
type Diff struct {
	Observed     []ObservedMutation
	Writes       []port.Write
	StateVersion string
}

// DerivedMutations is the bounded observation of derived changes that
// tools add to their output (CONTRACTS §6.1 DERIVED_MUTATION_OBSERVATION).
type DerivedMutations struct {
	Count     int      `json:"count"`
	Paths     []string `json:"paths"`
	Truncated bool     `json:"truncated"`
}

// DiffSnapshots compares two snapshots (LAB_AND_HOSTS §14.3). A path is
// unchanged when its kind and fingerprint are equal. Durable changes become
// typed writes whose hashes are "sha256:"-prefixed (null for directories
// and missing sides); derived changes never do. A path whose evidence class
// differs between the snapshots is INVALID_INPUT (snapshots taken with
// different options); more than MaxDurableMutations writes is
// LIMIT_EXCEEDED.
func DiffSnapshots(before, after Snapshot) (Diff, error) {
	d := Diff{StateVersion: after.StateVersion}
	i, j := 0, 0
	for i < len(before.Entries) || j < len(after.Entries) {
		var b, a *SnapshotEntry
		switch {
		case j == len(after.Entries):
			b = &before.Entries[i]
			i++
		case i == len(before.Entries):
			a = &after.Entries[j]
			j++
		default:
			switch c := compareUTF16(before.Entries[i].Path, after.Entries[j].Path); {
			case c < 0:
				b = &before.Entries[i]
				i++
			case c > 0:
				a = &after.Entries[j]
				j++
			default:
				b, a = &before.Entries[i], &after.Entries[j]
				i++
				j++
			}
		}
		if b != nil && a != nil {
			if b.Kind == a.Kind && b.Fingerprint == a.Fingerprint {
				continue
			}
			if b.EvidenceClass != a.EvidenceClass {
				return Diff{}, fail(hosterr.InvalidInput, "Workspace snapshots disagree on the evidence class of '%s'.", b.Path)
			}
		}
		m := ObservedMutation{BeforeKind: KindMissing, AfterKind: KindMissing}
		if b != nil {
			m.Path, m.EvidenceClass, m.BeforeKind = b.Path, b.EvidenceClass, b.Kind
			m.BeforeFingerprint = ptr(b.Fingerprint)
		}
		if a != nil {
			m.Path, m.EvidenceClass, m.AfterKind = a.Path, a.EvidenceClass, a.Kind
			m.AfterFingerprint = ptr(a.Fingerprint)
		}
		d.Observed = append(d.Observed, m)
		if m.EvidenceClass == Durable {
			if len(d.Writes) == MaxDurableMutations {
				return Diff{}, fail(hosterr.LimitExceeded, "Workspace mutation diff exceeded %d durable writes.", MaxDurableMutations)
			}
			d.Writes = append(d.Writes, port.Write{
				Path:       m.Path,
				BeforeKind: m.BeforeKind,
				BeforeHash: writeHash(m.BeforeKind, m.BeforeFingerprint),
				AfterKind:  m.AfterKind,
				AfterHash:  writeHash(m.AfterKind, m.AfterFingerprint),
			})
		}
	}
	return d, nil
}

// DerivedMutations returns the bounded observation of the diff's derived
// changes, or nil when there are none.
func (d Diff) DerivedMutations() *DerivedMutations {
	var paths []string
	for _, m := range d.Observed {
		if m.EvidenceClass == Derived {
			paths = append(paths, m.Path)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	return &DerivedMutations{
		Count:     len(paths),
		Paths:     paths[:min(len(paths), MaxReportedDerivedPaths)],
		Truncated: len(paths) > MaxReportedDerivedPaths,
	}
}

// writeHash is the evidence hash of one side: nil for directories and
// missing paths, else the prefixed fingerprint.
func writeHash(kind string, fingerprint *string) *string {
	if kind == KindDirectory || kind == KindMissing || fingerprint == nil {
		return nil
	}
	return evidenceHash(*fingerprint)
}

func ptr(s string) *string { return &s }
