package oracle

import (
	"fmt"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// lockSuffix ends the names of the workspace's lock files, which the
// original oracle snapshot leaves out with everything below them (LAB §3.5).
const lockSuffix = ".galaxy-code.lock"

// isLock reports whether some segment of the slash path p names a lock.
func isLock(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if strings.HasSuffix(seg, lockSuffix) {
			return true
		}
	}
	return false
}

// files checks expected.files (LAB §4.6, DECISIONS 52).
func (c *checker) files() {
	for i, w := range c.exp.Files {
		at := fmt.Sprintf("expected.files[%d]", i)
		got, seen := c.obs.Files[w.Path]
		if !seen {
			// The runner did not read the path: a harness defect, reported
			// rather than passed.
			got = File{Kind: "unobserved", ErrorCode: "NOT_OBSERVED"}
		}
		if w.Absent {
			if got.Kind != effects.KindMissing {
				c.fail(at+".absent", "no entry at '"+w.Path+"'", got.Kind,
					fmt.Sprintf("Expected file '%s' to be absent.", w.Path))
			}
			continue
		}
		if got.ErrorCode != "" {
			actual := got.Kind
			if got.Target != "" {
				actual += " to " + text(got.Target)
			}
			c.fail(at, "readable file '"+w.Path+"'", actual+" ("+got.ErrorCode+")",
				fmt.Sprintf("Expected file '%s' is unreadable: %s.", w.Path, got.ErrorCode))
			continue
		}
		if w.Content != nil && got.Content != *w.Content {
			want, actual := differingText(*w.Content, got.Content)
			c.fail(at+".content", want, actual,
				fmt.Sprintf("File '%s' content does not match the fixture.", w.Path))
		}
		for j, frag := range w.ContentIncludes {
			if !strings.Contains(got.Content, frag) {
				c.fail(fmt.Sprintf("%s.contentIncludes[%d]", at, j), "content including "+text(frag), text(got.Content),
					fmt.Sprintf("File '%s' does not include %s.", w.Path, jsStr(frag)))
			}
		}
		if w.Unchanged {
			before, okBefore := find(c.obs.Initial, w.Path)
			after, okAfter := find(c.obs.Final, w.Path)
			if skipped := firstSkipped(before, after); skipped != "" {
				c.fail(at+".unchanged", "same entry before and after", skipped,
					fmt.Sprintf("File '%s' cannot be checked byte for byte: the harness's snapshot %s (raise --max-snapshot-file-size).", w.Path, skipped))
			} else if !okBefore || !okAfter || before.Kind != after.Kind || before.Hash != after.Hash {
				c.fail(at+".unchanged", "same entry before and after", entryText(before, okBefore)+" -> "+entryText(after, okAfter),
					fmt.Sprintf("File '%s' was expected to remain byte-identical.", w.Path))
			}
		}
	}
}

// allowedChanges checks expected.allowedChanges as an exact set (LAB §4.7).
func (c *checker) allowedChanges() {
	if c.exp.AllowedChanges == nil {
		return
	}
	want := slices.Clone(c.exp.AllowedChanges)
	slices.Sort(want)
	got := c.obs.ChangedPaths()
	if slices.Equal(want, got) {
		return
	}
	c.fail("expected.allowedChanges", list(want), list(got),
		fmt.Sprintf("Expected changed paths %s, received %s.", js(want), js(got)))
}

// writeEvidence checks that every change of a completed run to a durable
// path is backed by the final result's write evidence (LAB §4.8), against
// the harness's own snapshots. A change under a derived tree needs none:
// the contract reports it as derivedMutations, never as a write
// (CONTRACTS.md, `writes`; S000 TOOL_EFFECT_PROFILE "only byte-verifiable
// durable paths belong in `write`"). Evidence a host gives for such a path
// anyway is still checked against the workspace.
func (c *checker) writeEvidence() {
	if c.obs.Status != fixture.StatusCompleted {
		return
	}
	latest := map[string]port.Write{}
	for _, w := range c.obs.Writes {
		latest[w.Path] = w
	}
	for _, p := range c.obs.ChangedPaths() {
		before, okBefore := find(c.obs.Initial, p)
		after, okAfter := find(c.obs.Final, p)
		w, exact := latest[p]
		if !exact && IsDerivedPath(p) {
			continue
		}
		if !exact {
			dir := (okBefore && before.Kind == effects.KindDirectory) || (okAfter && after.Kind == effects.KindDirectory)
			if dir && c.writeBelow(p) {
				continue
			}
			c.fail("writeEvidence", "write evidence for '"+p+"'", "none ("+entryText(before, okBefore)+" -> "+entryText(after, okAfter)+")",
				fmt.Sprintf("Completed run changed '%s' without trusted mutation evidence.", p))
			continue
		}
		wantKind := w.AfterKind
		if wantKind == "" {
			wantKind = effects.KindFile
			if w.AfterHash == nil {
				wantKind = effects.KindMissing
			}
		}
		gotKind := effects.KindMissing
		if okAfter {
			gotKind = after.Kind
		}
		if wantKind != gotKind {
			c.fail("writeEvidence", "'"+p+"' ending as "+wantKind+" (write evidence)", gotKind,
				fmt.Sprintf("Mutation evidence for '%s' ended as %s, workspace ended as %s.", p, wantKind, gotKind))
		}
		if w.AfterHash != nil && hashComparable(gotKind) && after.Skipped != "" {
			c.fail("writeEvidence", "'"+p+"' with hash "+*w.AfterHash+" (write evidence)", after.Skipped,
				fmt.Sprintf("Mutation evidence hash for '%s' cannot be checked: the harness's snapshot %s (raise --max-snapshot-file-size).", p, after.Skipped))
		} else if w.AfterHash != nil && hashComparable(gotKind) && !sameHash(*w.AfterHash, after.Hash) {
			c.fail("writeEvidence", "'"+p+"' with hash "+*w.AfterHash+" (write evidence)", entryText(after, okAfter),
				fmt.Sprintf("Mutation evidence hash for '%s' does not match final workspace bytes.", p))
		}
	}
}

// writeBelow reports whether some write evidence names a path inside dir.
func (c *checker) writeBelow(dir string) bool {
	return slices.ContainsFunc(c.obs.Writes, func(w port.Write) bool {
		return strings.HasPrefix(w.Path, dir+"/")
	})
}

// hashComparable reports whether a host's evidence hash for an entry of
// kind can be compared with the harness's: file hashes are SHA-256 of the
// bytes on both sides; symlink and special-entry hashes are host-defined
// (CONTRACTS §7.6). A write whose afterHash is set but whose path is gone
// or a directory fails, as in the original.
func hashComparable(kind string) bool {
	return kind != effects.KindSymlink && kind != effects.KindOther
}

// sameHash compares two SHA-256 hashes, each hex with or without a
// "sha256:" prefix, ignoring the case of the hex digits.
func sameHash(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.TrimPrefix(s, "sha256:")) }
	return b != "" && norm(a) == norm(b)
}

func find(s snapshot.Snapshot, p string) (snapshot.Entry, bool) {
	i, ok := slices.BinarySearchFunc(s, p, func(e snapshot.Entry, p string) int { return strings.Compare(e.Path, p) })
	if ok {
		return s[i], true
	}
	// A snapshot that is not sorted is searched in full.
	for _, e := range s {
		if e.Path == p {
			return e, true
		}
	}
	return snapshot.Entry{}, false
}

// firstSkipped returns the reason the snapshot did not hash a or b, or "".
func firstSkipped(a, b snapshot.Entry) string {
	if a.Skipped != "" {
		return a.Skipped
	}
	return b.Skipped
}

// entryText renders a snapshot entry as "kind hash", or "missing".
func entryText(e snapshot.Entry, ok bool) string {
	if !ok {
		return effects.KindMissing
	}
	if e.Hash == "" {
		return e.Kind
	}
	return e.Kind + " " + e.Hash
}
