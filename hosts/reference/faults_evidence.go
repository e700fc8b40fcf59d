package reference

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/approval"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

// This file holds the fault seams of the tool executor's effect metadata,
// write evidence and validation scripts (T3, T5, T7–T11): see Faults.

// metadataFaults rewrites a tools/list answer as CanonicalIDsFromCatalog
// (every backed tool of the catalog mapped, active or not) and
// CapabilitiesOfActiveOnly (the capabilities of the active tools alone)
// do; without them ts is unchanged.
func (s *session) metadataFaults(ts *port.ToolSet) {
	if s.faults.CapabilitiesOfActiveOnly {
		active := map[string][]string{}
		for _, id := range ts.CanonicalToolIDs {
			if caps, ok := ts.EffectCapabilities[id]; ok {
				active[id] = caps
			}
		}
		ts.EffectCapabilities = active
	}
	if s.faults.CanonicalIDsFromCatalog {
		ids := map[string]string{}
		for name, id := range ts.CanonicalToolIDs {
			ids[name] = id
		}
		for _, d := range s.params.Catalog.Tools {
			if slices.Contains(s.backed, d.ID) {
				ids[d.ModelName] = d.ID
			}
		}
		ts.CanonicalToolIDs = ids
	}
}

// evidenceFaults adds derived changes to the writes of a diff as
// DerivedNestedAsWrite, DerivedLeafFilesAsWrite and DerivedRootsAsWrite
// do; without them d is unchanged.
func (s *session) evidenceFaults(d workspace.Diff) workspace.Diff {
	if s.faults.DerivedNestedAsWrite {
		d = derivedWritesWhere(d, func(p string) bool { return dirDerived(p) && !dirDerived(strings.Split(p, "/")[0]) })
	}
	if s.faults.DerivedLeafFilesAsWrite {
		d = derivedWritesWhere(d, func(p string) bool { return !dirDerived(p) })
	}
	if s.faults.DerivedRootsAsWrite {
		d = derivedWritesWhere(d, func(p string) bool { return !dirDerived(path.Dir(p)) && dirDerived(p) })
	}
	return d
}

// writeFaults rewrites the write evidence of a mutation, after the host's
// own checks of it, as MissingHashEmptyString, DeleteAsEmptyFile,
// FollowSymlinkEvidence and DirectoryListingHash do; without them writes
// is unchanged.
func (s *session) writeFaults(writes []port.Write) []port.Write {
	if !s.faults.MissingHashEmptyString && !s.faults.DeleteAsEmptyFile && !s.faults.FollowSymlinkEvidence && !s.faults.DirectoryListingHash {
		return writes
	}
	writes = slices.Clone(writes)
	for i, w := range writes {
		if s.faults.MissingHashEmptyString {
			empty := ""
			if w.BeforeKind == workspace.KindMissing {
				writes[i].BeforeHash = &empty
			}
			if w.AfterKind == workspace.KindMissing {
				writes[i].AfterHash = &empty
			}
		}
		if s.faults.DeleteAsEmptyFile && w.BeforeKind == workspace.KindFile && w.AfterKind == workspace.KindMissing {
			h := workspace.HashPrefix + workspace.SHA256Hex(nil)
			writes[i].AfterKind, writes[i].AfterHash = workspace.KindFile, &h
		}
		if s.faults.FollowSymlinkEvidence && w.AfterKind == workspace.KindSymlink {
			writes[i].AfterKind, writes[i].AfterHash = s.followed(w.Path)
		}
		if s.faults.DirectoryListingHash {
			if w.BeforeKind == workspace.KindDirectory {
				writes[i].BeforeHash = s.listingHash(w.Path)
			}
			if w.AfterKind == workspace.KindDirectory {
				writes[i].AfterHash = s.listingHash(w.Path)
			}
		}
	}
	return writes
}

// skipsEvidenceCheck reports whether a fault leaves out the host's own
// check of its effects against the tool's profile and the evidence rules:
// MissingHashEmptyString and DirectoryListingHash, whose hurried hosts
// have none.
func (s *session) skipsEvidenceCheck() bool {
	return s.faults.MissingHashEmptyString || s.faults.DirectoryListingHash || s.faults.CommandOutputAsValidation
}

// outputValidation is the CommandOutputAsValidation evidence of a
// command's result: a passed workspace validation when it exited 0 and
// its output says it passed; without the fault, eff unchanged.
func (s *session) outputValidation(eff *port.Effects, res command.Result) *port.Effects {
	if !s.faults.CommandOutputAsValidation || res.ExitCode == nil || *res.ExitCode != 0 {
		return eff
	}
	low := strings.ToLower(res.Stdout + res.Stderr)
	if !strings.Contains(low, "passed") && !strings.Contains(low, "passing") {
		return eff
	}
	if eff == nil {
		eff = &port.Effects{}
	}
	eff.Validations = append(eff.Validations, port.ValidationEntry{ID: "command.run:output", Detail: "test: passed", Scope: "workspace", Status: "passed"})
	return eff
}

// listingHash is the DirectoryListingHash hash of the workspace directory
// p: the SHA-256 of its sorted entry names as they are now (none when it
// no longer exists).
func (s *session) listingHash(p string) *string {
	entries, _ := os.ReadDir(filepath.Join(s.root.Dir(), filepath.FromSlash(p)))
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	h := workspace.HashPrefix + workspace.SHA256Hex([]byte(strings.Join(names, "\x00")))
	return &h
}

// followed types the workspace path p as a stat that follows symlinks
// does: a file with its content hash, a directory, or missing.
func (s *session) followed(p string) (string, *string) {
	full := filepath.Join(s.root.Dir(), filepath.FromSlash(p))
	fi, err := os.Stat(full)
	switch {
	case err != nil:
		return workspace.KindMissing, nil
	case fi.IsDir():
		return workspace.KindDirectory, nil
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return workspace.KindMissing, nil
	}
	h := workspace.HashPrefix + workspace.SHA256Hex(data)
	return workspace.KindFile, &h
}

// dirDerived reports whether some segment of the root-relative path p is
// a generated directory name (node_modules, dist, …).
func dirDerived(p string) bool { return workspace.IsGeneratedPath(p + "/x") }

// derivedWritesWhere adds the derived changes of d whose path keep
// accepts to its writes, hashed as DerivedAsWrite hashes them (by their
// metadata fingerprint), sorted by path.
func derivedWritesWhere(d workspace.Diff, keep func(string) bool) workspace.Diff {
	var sub workspace.Diff
	for _, m := range d.Observed {
		if m.EvidenceClass == workspace.Derived && keep(m.Path) {
			sub.Observed = append(sub.Observed, m)
		}
	}
	if len(sub.Observed) == 0 {
		return d
	}
	d.Writes = append(slices.Clone(d.Writes), derivedWrites(sub).Writes...)
	slices.SortFunc(d.Writes, func(a, b port.Write) int { return strings.Compare(a.Path, b.Path) })
	return d
}

// statusFromOutputText is a validation check's status under
// ValidationFailsOnOutput ("failed" when its output mentions a failure)
// and ValidationSkippedOnOutput ("skipped" when its output says npm's
// "Missing script"); without them, status unchanged.
func (s *session) statusFromOutputText(status, output string) string {
	low := strings.ToLower(output)
	switch {
	case s.faults.ValidationFailsOnOutput && strings.Contains(low, "fail"):
		return "failed"
	case s.faults.ValidationSkippedOnOutput && strings.Contains(low, "missing script"):
		return "skipped"
	}
	return status
}

// scriptsUnguarded reports whether a fault lets project.validate call c
// run the declared scripts without the approval their lack of verified
// containment requires: ValidateSubpackageUnapproved for a path other
// than the root, ValidateApprovalRemembered once a validation was granted.
func (s *session) scriptsUnguarded(c *call) bool {
	if s.faults.ValidateApprovalRemembered && s.validateGranted.Load() {
		return true
	}
	p, _ := c.args["path"].(string)
	return s.faults.ValidateSubpackageUnapproved && normalizeProjectPath(p) != "."
}

// rememberValidateGrant records, for ValidateApprovalRemembered, that
// the harness granted a project.validate call.
func (s *session) rememberValidateGrant(c *call, d approval.Decision) {
	if c.desc.ID == "project.validate" && d.Allowed && d.Code == approval.ApprovedByHost {
		s.validateGranted.Store(true)
	}
}
