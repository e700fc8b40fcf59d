package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
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
	// IgnoreStaleHash lets a matches_sha256 write or edit of an existing
	// regular file go ahead whatever its content hash is.
	IgnoreStaleHash bool
	// EditFirstOfAmbiguous replaces the first of several occurrences of
	// an edit's oldText instead of refusing the ambiguous edit.
	EditFirstOfAmbiguous bool
	// SilentMalformedManifest reads a root package.json that cannot be
	// parsed as one without scripts, without a warning.
	SilentMalformedManifest bool
	// ManifestDirectories lets directories named like manifests or
	// source files count as manifests and languages in project detection.
	ManifestDirectories bool
	// HideTraversalExclusions leaves the traversal-scope warning, which
	// names the excluded directories, out of project detection.
	HideTraversalExclusions bool

	// Bounds, containment, fingerprint and atomic-write faults (W1–W6).

	// IgnoreReadMaxBytes reads up to DefaultReadMaxBytes whatever maxBytes
	// a read asked for.
	IgnoreReadMaxBytes bool
	// IgnoreReadEndLine reads to the end of the file whatever endLine a
	// read asked for.
	IgnoreReadEndLine bool
	// ListCursorSkips points a truncated List page's nextCursor one entry
	// past the page's end, so the next page skips an entry.
	ListCursorSkips bool
	// ListCursorRepeats points a truncated List page's nextCursor at the
	// page's last entry, so the next page repeats it.
	ListCursorRepeats bool
	// IgnoreSearchLimit answers Grep with every match whatever limit was
	// asked for.
	IgnoreSearchLimit bool
	// CaseFoldContainment judges whether a resolved path lies beneath the
	// root by a case-insensitive comparison, so a symlink to a sibling
	// whose name differs from the root's only by letter case is followed.
	CaseFoldContainment bool
	// PrefixContainment judges whether a resolved path lies beneath the
	// root by a plain string prefix, so a symlink to a sibling whose name
	// starts with the root's name is followed.
	PrefixContainment bool
	// DetectFollowsSymlinks lets project detection enter symlinked
	// directories, wherever they lead.
	DetectFollowsSymlinks bool
	// FingerprintIgnoresMode leaves file modes out of the relevant-
	// workspace fingerprint.
	FingerprintIgnoresMode bool
	// FingerprintFilesOnly binds only files and symlinks into the
	// relevant-workspace fingerprint, so an added empty directory goes
	// unnoticed.
	FingerprintFilesOnly bool
	// IgnoreActiveFileHash accepts an active file whose declared content
	// hash no longer holds.
	IgnoreActiveFileHash bool
	// WriteInPlace replaces an existing file's content by truncating and
	// rewriting it instead of renaming a temporary file over it.
	WriteInPlace bool
	// ReadHashOfRange answers a read's contentHash as the hash of the
	// returned range instead of the whole file.
	ReadHashOfRange bool
	// IgnoreListDepth lists every level below the directory whatever
	// depth a List asked for.
	IgnoreListDepth bool
	// IgnoreGlobLimit answers Glob with every match whatever limit was
	// asked for.
	IgnoreGlobLimit bool
	// SearchFollowsSymlinks lets Grep enter symlinked directories,
	// wherever they lead.
	SearchFollowsSymlinks bool
	// FingerprintSkipsDotfiles leaves entries whose names start with "."
	// out of the relevant-workspace fingerprint.
	FingerprintSkipsDotfiles bool
	// CreateAsReplace attests a created file as a replacement of an
	// empty file: beforeKind file with the empty content's hash.
	CreateAsReplace bool
	// UntypedCreatedDirs attests the directories a write created as files
	// with the empty content's hash.
	UntypedCreatedDirs bool
	// GrepHashOfLine answers a match's contentHash as the hash of the
	// matching line instead of the whole file.
	GrepHashOfLine bool
	// CreateThroughDanglingLink writes through a final symlink whose
	// target does not exist, wherever it points, as a host that checks
	// existence with stat and writes with a path-following open does.
	CreateThroughDanglingLink bool
	// RawBytesMutations edits and replaces a target that is not valid
	// UTF-8 as raw bytes instead of refusing it.
	RawBytesMutations bool
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

// preconditionPasses tells whether a fault lets the precondition p pass
// although check refused it: IgnoreMustNotExist for must_not_exist,
// IgnoreStaleHash for matches_sha256 on an existing regular file.
func (r *Root) preconditionPasses(p Precondition, cur targetState) bool {
	switch p.Kind {
	case MustNotExist:
		return r.faults.IgnoreMustNotExist
	case MatchesSHA256:
		return r.faults.IgnoreStaleHash && cur.exists && cur.regular
	}
	return false
}

// countsAsFile tells whether project detection takes an entry of kind for
// a file although it is not one: the ManifestDirectories fault, for
// directories.
func (r *Root) countsAsFile(kind string) bool {
	return r.faults.ManifestDirectories && kind == KindDirectory
}

// replaceUndecodable rewrites a target that failed to decode as UTF-8 with
// its own raw bytes, so that only its inode changes: the
// ReplaceInodeOnFailure fault on the invalid-UTF-8 refusal.
func replaceUndecodable(abs, rel string) {
	fi, err := os.Lstat(abs)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return
	}
	replaceInode(abs, targetState{rel: rel, exists: true, regular: true, data: data, perm: fi.Mode().Perm()})
}

// lossyUTF8 decodes data as the DecodeInvalidUTF8 fault does: every
// invalid sequence becomes U+FFFD.
func lossyUTF8(data []byte) []byte {
	return []byte(strings.ToValidUTF8(string(data), "\uFFFD"))
}

// misplacedCursor moves an offset cursor of a List page one entry on
// (ListCursorSkips) or back (ListCursorRepeats); otherwise, and for "",
// it returns next unchanged.
func (r *Root) misplacedCursor(next string) string {
	if next == "" || (!r.faults.ListCursorSkips && !r.faults.ListCursorRepeats) {
		return next
	}
	n, err := decodeOffset(next)
	if err != nil {
		return next
	}
	if r.faults.ListCursorSkips {
		n++
	} else {
		n--
	}
	return offsetCursorPrefix + strconv.Itoa(n)
}

// insideByString judges containment as a hurried host does, by comparing
// strings: CaseFoldContainment folds letter case, PrefixContainment drops
// the separator boundary.
func (r *Root) insideByString(p string) bool {
	if r.faults.PrefixContainment {
		return strings.HasPrefix(p, r.dir)
	}
	sep := string(filepath.Separator)
	return strings.EqualFold(p, r.dir) || (len(p) > len(r.dir)+1 && strings.EqualFold(p[:len(r.dir)+1], r.dir+sep))
}

// followedLinks walks the directories that the symlinks among entries
// lead to, wherever they are, and returns their files as if they lay
// beneath the links: the DetectFollowsSymlinks fault.
func (r *Root) followedLinks(entries []Entry) []Entry {
	var out []Entry
	for _, e := range entries {
		if e.Kind != KindSymlink {
			continue
		}
		target, err := filepath.EvalSymlinks(r.absOf(e.Path))
		if err != nil {
			continue
		}
		_ = filepath.WalkDir(target, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || len(out) >= DetectMaxEntries {
				return nil
			}
			rel, rerr := filepath.Rel(target, p)
			if rerr != nil {
				return nil
			}
			out = append(out, Entry{Kind: kindOf(d.Type()), Name: d.Name(), Path: e.Path + "/" + filepath.ToSlash(rel)})
			return nil
		})
	}
	return out
}

// rewriteInPlace truncates the existing target and writes content into
// it, keeping its inode: the WriteInPlace fault.
func rewriteInPlace(abs string, content []byte) error {
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Attested is the write evidence a text mutation reports for ws, the
// writes its snapshots observed: ws itself, or, with CreateAsReplace or
// UntypedCreatedDirs, a copy whose creations are typed as a hurried host
// types them.
func (r *Root) Attested(ws []port.Write) []port.Write {
	if !r.faults.CreateAsReplace && !r.faults.UntypedCreatedDirs {
		return ws
	}
	ws = slices.Clone(ws)
	empty := evidenceHash(SHA256Hex(nil))
	for i, w := range ws {
		switch {
		case r.faults.CreateAsReplace && w.BeforeKind == KindMissing && w.AfterKind == KindFile:
			ws[i].BeforeKind, ws[i].BeforeHash = KindFile, empty
		case r.faults.UntypedCreatedDirs && w.BeforeKind == KindMissing && w.AfterKind == KindDirectory:
			ws[i].AfterKind, ws[i].AfterHash = KindFile, empty
		}
	}
	return ws
}

// danglingTarget returns the absolute target of the final symlink link
// when it does not exist: the CreateThroughDanglingLink fault, under which
// a write goes through it.
func (r *Root) danglingTarget(link string, final bool) (string, bool) {
	if !r.faults.CreateThroughDanglingLink || !final {
		return "", false
	}
	if _, err := os.Stat(link); !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	target, err := os.Readlink(link)
	if err != nil {
		return "", false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(link), target)
	}
	return target, true
}
