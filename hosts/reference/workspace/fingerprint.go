package workspace

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// Consistency is the verifier's consistency level (CONTRACTS §13.8): the
// Root serializes its mutations with capture and verify.
const Consistency = "serialized_workspace"

// CaptureState fingerprints the workspace and the active files (CONTRACTS
// §13.8 capture).
func (r *Root) CaptureState(ctx context.Context, active []port.ActiveFile, dirty *string) (port.WorkspaceState, error) {
	fp, err := r.Fingerprint(ctx, active)
	if err != nil {
		return port.WorkspaceState{}, err
	}
	return port.WorkspaceState{ActiveFiles: slices.Clone(active), DirtyStateSummary: dirty, StateFingerprint: fp}, nil
}

// VerifyState re-reads the workspace and reports whether it still has the
// captured fingerprint. An active file whose declared kind or hash no
// longer holds is PRECONDITION_FAILED.
func (r *Root) VerifyState(ctx context.Context, state port.WorkspaceState) (port.Verification, error) {
	fp, err := r.Fingerprint(ctx, state.ActiveFiles)
	if err != nil {
		return port.Verification{}, err
	}
	return port.Verification{CurrentFingerprint: fp, Matches: fp == state.StateFingerprint}, nil
}

// Fingerprint returns the relevant-workspace fingerprint ("sha256:…",
// LAB_AND_HOSTS §15): a hash over every entry of the workspace except
// .git, generated directories, generated files and lock files — file
// contents and full modes included — followed by every active file,
// checked against its declared kind and hash. The value is opaque and
// stable only within this implementation; absolute paths never enter it.
func (r *Root) Fingerprint(ctx context.Context, active []port.ActiveFile) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := &fingerprinter{ctx: ctx, r: r, h: sha256.New()}
	if err := f.walk(".", r.dir, "", true); err != nil {
		return "", err
	}
	sorted := slices.Clone(active)
	slices.SortStableFunc(sorted, func(a, b port.ActiveFile) int { return compareUTF16(a.Path, b.Path) })
	for _, af := range sorted {
		if err := f.active(af); err != nil {
			return "", err
		}
	}
	return HashPrefix + hex.EncodeToString(f.h.Sum(nil)), nil
}

type fingerprinter struct {
	ctx    context.Context
	r      *Root
	h      hash.Hash
	count  int
	hashed int64
}

// record writes NUL-terminated fields.
func (f *fingerprinter) record(fields ...string) {
	for _, s := range fields {
		io.WriteString(f.h, s)
		f.h.Write([]byte{0})
	}
}

func (f *fingerprinter) countEntry() error {
	if err := checkContext(f.ctx); err != nil {
		return err
	}
	if f.count++; f.count > MaxTraversalEntries {
		return fail(hosterr.LimitExceeded, "Workspace evidence capture exceeded %d entries.", MaxTraversalEntries)
	}
	return nil
}

// recordFile writes "<tag>\0<path>\0<mode>\0<len>\0<bytes>\0" and returns
// the hex hash of the bytes.
func (f *fingerprinter) recordFile(tag, rel, abs string, fi fs.FileInfo) (string, error) {
	if f.hashed += fi.Size(); f.hashed > defaultMaxHashedBytes {
		return "", fail(hosterr.LimitExceeded, "Workspace evidence capture exceeded %d hashed bytes.", defaultMaxHashedBytes)
	}
	mode := strconv.FormatUint(uint64(metaOf(fi).mode), 10)
	if f.r.faults.FingerprintIgnoresMode {
		mode = ""
	}
	f.record(tag, rel, mode, strconv.FormatInt(fi.Size(), 10))
	if f.r.faults.MetadataFingerprint {
		meta := strconv.FormatInt(fi.ModTime().UnixNano(), 10)
		f.record(meta)
		sum := sha256.Sum256([]byte(meta))
		return hex.EncodeToString(sum[:]), nil
	}
	content := sha256.New()
	if err := readStable(abs, rel, fi, io.MultiWriter(f.h, content)); err != nil {
		return "", changedDuringCapture(rel, err)
	}
	f.h.Write([]byte{0})
	return hex.EncodeToString(content.Sum(nil)), nil
}

func changedDuringCapture(rel string, err error) error {
	if CodeOf(err) == hosterr.Conflict {
		return fail(hosterr.IOError, "Workspace file changed during evidence capture: '%s'.", rel)
	}
	return err
}

// walk records a directory's entries. With main, the tags are those of the
// main walk and ignored directories and generated files are skipped;
// otherwise tag prefixes the tree walk of an active directory (only
// generated files and lock files are skipped).
func (f *fingerprinter) walk(dirRel, dirAbs, tag string, main bool) error {
	names, err := walkNames(dirRel, dirAbs, true)
	if err != nil {
		return err
	}
	for _, name := range names {
		if f.r.faults.FingerprintSkipsDotfiles && strings.HasPrefix(name, ".") {
			continue
		}
		p, abs := joinRel(dirRel, name), filepath.Join(dirAbs, name)
		fi, err := os.Lstat(abs)
		if err != nil {
			return changedDuringCapture(p, ioError(p, err))
		}
		kind := kindOf(fi.Mode())
		if (main && kind == KindDirectory && generatedDirNames[name]) || (kind != KindDirectory && isGeneratedFileName(name)) {
			continue
		}
		if err := f.countEntry(); err != nil {
			return err
		}
		switch kind {
		case KindDirectory:
			if !f.r.faults.FingerprintFilesOnly {
				f.record(tag+"directory", p)
			}
			if err := f.walk(p, abs, tag, main); err != nil {
				return err
			}
		case KindSymlink:
			target, err := os.Readlink(abs)
			if err != nil {
				return ioError(p, err)
			}
			f.record(tag+"symlink", p, target)
		case KindFile:
			if _, err := f.recordFile(tag+"file", p, abs, fi); err != nil {
				return err
			}
		default:
			f.record(tag+"other", p)
		}
	}
	return nil
}

// metaWalk records a directory under an ignored tree by metadata only.
func (f *fingerprinter) metaWalk(dirRel, dirAbs string) error {
	names, err := walkNames(dirRel, dirAbs, false)
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := f.countEntry(); err != nil {
			return err
		}
		p, abs := joinRel(dirRel, name), filepath.Join(dirAbs, name)
		fi, err := os.Lstat(abs)
		if err != nil {
			return changedDuringCapture(p, ioError(p, err))
		}
		m := metaOf(fi)
		u := func(v uint64) string { return strconv.FormatUint(v, 10) }
		mtime, ctime := strconv.FormatInt(fi.ModTime().UnixNano(), 10), strconv.FormatInt(m.ctimeNs, 10)
		switch kind := kindOf(fi.Mode()); kind {
		case KindDirectory:
			f.record("active-derived-directory", p, u(uint64(m.mode)), u(m.dev), u(m.ino))
			if err := f.metaWalk(p, abs); err != nil {
				return err
			}
		case KindSymlink:
			target, err := os.Readlink(abs)
			if err != nil {
				return ioError(p, err)
			}
			f.record("active-derived-symlink", p, target, u(uint64(m.mode)), mtime, ctime)
		default:
			f.record("active-derived-"+kind, p, u(m.dev), u(m.ino), u(uint64(m.mode)), strconv.FormatInt(fi.Size(), 10), mtime, ctime)
		}
		if err := restat(abs, p, fi); err != nil {
			return changedDuringCapture(p, err)
		}
	}
	return nil
}

// underIgnored reports whether a root-relative path lies in a directory
// the main walk skips.
func underIgnored(p string) bool {
	for _, s := range strings.Split(p, "/") {
		if s == ".git" || generatedDirNames[s] {
			return true
		}
	}
	return false
}

// active records and checks one active file (LAB_AND_HOSTS §15 step 2).
func (f *fingerprinter) active(af port.ActiveFile) error {
	if err := checkContext(f.ctx); err != nil {
		return err
	}
	_, clean, err := f.r.lexical(af.Path)
	if err != nil {
		return err
	}
	if strings.HasSuffix(path.Base(clean), churningSuffix) {
		f.record("active-churning", clean)
		return nil
	}
	var want *string
	if af.ContentHash != nil {
		h := normalizeHash(*af.ContentHash)
		want = &h
	}
	kindChanged := fail(hosterr.PreconditionFailed, "Active file kind changed: '%s'.", clean)
	hashChanged := fail(hosterr.PreconditionFailed, "Active file content hash changed: '%s'.", clean)
	declared := af.Kind
	fi, abs, err := f.locate(clean)
	if err != nil {
		return err
	}
	if fi == nil {
		if (declared == "" || declared == KindMissing) && want == nil {
			f.record("active-missing", clean)
			return nil
		}
		return fail(hosterr.PreconditionFailed, "Active file is missing: '%s'.", clean)
	}
	if declared == KindMissing {
		return fail(hosterr.PreconditionFailed, "Active file was recorded as missing but exists: '%s'.", clean)
	}
	kind := kindOf(fi.Mode())
	if declared != "" && declared != kind {
		return kindChanged
	}
	switch kind {
	case KindFile:
		got, err := f.recordFile("active-file", clean, abs, fi)
		if err != nil {
			return err
		}
		if want != nil && *want != got && !f.r.faults.IgnoreActiveFileHash {
			return hashChanged
		}
	case KindDirectory:
		if want != nil {
			return fail(hosterr.InvalidInput, "Active directory entries cannot carry a content hash: '%s'.", clean)
		}
		f.record("active-directory", clean)
		if underIgnored(clean) {
			return f.metaWalk(clean, abs)
		}
	case KindSymlink:
		target, err := os.Readlink(abs)
		if err != nil {
			return ioError(clean, err)
		}
		f.record("active-symlink", clean, target)
		if declared == KindSymlink {
			if want != nil && *want != symlinkFingerprint(target) {
				return hashChanged
			}
			return nil
		}
		return f.activeTarget(clean, want, hashChanged)
	default:
		if declared == KindOther && want != nil && *want != otherFingerprint(fi) {
			return hashChanged
		}
		f.record("active-other", clean)
	}
	return nil
}

// locate lstats an active path after resolving its parent through the
// scope; a missing path (or parent) gives a nil FileInfo.
func (f *fingerprinter) locate(clean string) (fs.FileInfo, string, error) {
	abs := f.r.dir
	if clean != "." {
		parent, _, err := f.r.resolveExisting(path.Dir(clean))
		if c := CodeOf(err); c == hosterr.NotFound || c == hosterr.InvalidInput {
			return nil, "", nil
		}
		if err != nil {
			return nil, "", err
		}
		abs = filepath.Join(parent, path.Base(clean))
	}
	fi, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", ioError(clean, err)
	}
	return fi, abs, nil
}

// activeTarget follows an active symlink without a declared kind inside
// the scope and records its target.
func (f *fingerprinter) activeTarget(clean string, want *string, hashChanged error) error {
	real, realRel, err := f.r.resolveExisting(clean)
	if err != nil {
		return err
	}
	fi, err := os.Lstat(real)
	if err != nil {
		return ioError(clean, err)
	}
	switch kindOf(fi.Mode()) {
	case KindFile:
		got, err := f.recordFile("active-target-file", clean, real, fi)
		if err != nil {
			return err
		}
		if want != nil && *want != got {
			return hashChanged
		}
		return nil
	case KindDirectory:
		if want != nil {
			return fail(hosterr.InvalidInput, "Active directory entries cannot carry a content hash: '%s'.", clean)
		}
		f.record("active-target-directory", clean)
		if underIgnored(realRel) {
			return f.metaWalk(realRel, real)
		}
		return f.walk(realRel, real, "active-tree-", false)
	}
	if want != nil {
		return fail(hosterr.InvalidInput, "Active special entries cannot carry a content hash: '%s'.", clean)
	}
	f.record("active-target-other", clean)
	return nil
}
