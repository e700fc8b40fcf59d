package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// Evidence classes of snapshot entries (LAB_AND_HOSTS §14.2).
const (
	// Durable entries are content-hashed; their changes become write
	// evidence.
	Durable = "durable"
	// Derived entries (dependency and cache trees, generated files) are
	// metadata-fingerprinted; their changes are reported only as derived
	// mutations, never as write evidence.
	Derived = "derived"
)

// SnapshotOptions configure a Snapshot. DerivedDirectories are single
// directory names (no "/", DECISIONS 57) whose trees are derived; nil
// means none. MaxHashedBytes bounds the durable bytes hashed (0 means
// 512 MiB) and MaxEntries the entries captured (0 means 100000).
type SnapshotOptions struct {
	DerivedDirectories []string
	MaxHashedBytes     int64
	MaxEntries         int
}

// DefaultSnapshotOptions returns the dependency-aware options the tool
// executor uses (LAB_AND_HOSTS §14.1): dependency trees, the build outputs
// dist, build and coverage, and cache directories are derived, as
// CONTRACTS.md (`writes`) says: "only byte-verifiable durable paths belong
// in `write`" (S000 TOOL_EFFECT_PROFILE).
func DefaultSnapshotOptions() SnapshotOptions {
	return SnapshotOptions{
		DerivedDirectories: []string{
			".bun-cache", ".cache", ".gradle", ".mypy_cache", ".next", ".parcel-cache",
			".pytest_cache", ".turbo", ".vite", "__pycache__", "build", "coverage", "dist",
			"node_modules", "target",
		},
		MaxHashedBytes: defaultMaxHashedBytes,
		MaxEntries:     MaxTraversalEntries,
	}
}

const defaultMaxHashedBytes = 512 << 20

func (o SnapshotOptions) normalized() (SnapshotOptions, map[string]bool, error) {
	set := map[string]bool{}
	for _, d := range o.DerivedDirectories {
		if d == "" || d == "." || d == ".." || strings.ContainsAny(d, "/\\") {
			return o, nil, fmt.Errorf("workspace: invalid derived directory name %q", d)
		}
		set[d] = true
	}
	switch {
	case o.MaxHashedBytes == 0:
		o.MaxHashedBytes = defaultMaxHashedBytes
	case o.MaxHashedBytes < 0:
		return o, nil, fmt.Errorf("workspace: invalid MaxHashedBytes %d", o.MaxHashedBytes)
	}
	switch {
	case o.MaxEntries == 0:
		o.MaxEntries = MaxTraversalEntries
	case o.MaxEntries < 0:
		return o, nil, fmt.Errorf("workspace: invalid MaxEntries %d", o.MaxEntries)
	}
	return o, set, nil
}

// A SnapshotEntry is the typed state of one path. Fingerprint is bare hex:
// the content hash of a durable file, sha256("symlink\0"+target) for a
// symlink, sha256("other\0"+mode) for a special entry,
// sha256("directory\0") for a directory, and a metadata hash for a derived
// file.
type SnapshotEntry struct {
	Path          string `json:"path"`
	Kind          string `json:"kind"`
	EvidenceClass string `json:"evidenceClass"`
	Fingerprint   string `json:"comparisonFingerprint"`
}

// A Snapshot is the typed state of a whole workspace, entries sorted by
// path in UTF-16 order. StateVersion ("sha256:…") changes whenever any
// entry does.
type Snapshot struct {
	Entries      []SnapshotEntry `json:"entries"`
	StateVersion string          `json:"stateVersion"`
}

// Snapshot captures the typed state of the workspace (LAB_AND_HOSTS §14.2).
// Every entry except ".git" and lock files is captured, derived trees
// included (by metadata). An entry that changes while it is read is
// CONFLICT; too many entries or bytes is LIMIT_EXCEEDED.
func (r *Root) Snapshot(ctx context.Context, opts SnapshotOptions) (Snapshot, error) {
	opts, derived, err := opts.normalized()
	if err != nil {
		return Snapshot{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &snapshotter{ctx: ctx, opts: opts, derived: derived}
	if err := s.visit(".", r.dir, false); err != nil {
		return Snapshot{}, err
	}
	slices.SortFunc(s.entries, func(a, b SnapshotEntry) int { return compareUTF16(a.Path, b.Path) })
	return Snapshot{Entries: s.entries, StateVersion: stateVersion(s.entries)}, nil
}

type snapshotter struct {
	ctx     context.Context
	opts    SnapshotOptions
	derived map[string]bool
	entries []SnapshotEntry
	count   int
	hashed  int64
}

func (s *snapshotter) check() error {
	if err := checkContext(s.ctx); err != nil {
		we := err.(*hosterr.Error)
		if we.Code == hosterr.Canceled {
			we.Message = "Workspace mutation snapshot was canceled."
		}
		return we
	}
	return nil
}

var directoryFingerprint = sha256Text("directory\x00")

func (s *snapshotter) visit(dirRel, dirAbs string, parentDerived bool) error {
	if err := s.check(); err != nil {
		return err
	}
	before, err := os.Lstat(dirAbs)
	if err != nil {
		return ioError(dirRel, err)
	}
	if !before.IsDir() {
		return fail(hosterr.PermissionDenied, "Workspace snapshot cannot follow a directory symlink: '%s'.", dirRel)
	}
	names, err := walkNames(dirRel, dirAbs, true)
	if err != nil {
		return err
	}
	for _, name := range names {
		if s.count++; s.count > s.opts.MaxEntries {
			return fail(hosterr.LimitExceeded, "Workspace mutation snapshot exceeded %d entries.", s.opts.MaxEntries)
		}
		p := joinRel(dirRel, name)
		abs := filepath.Join(dirAbs, name)
		class := Durable
		if parentDerived || s.derived[name] || isGeneratedFileName(name) {
			class = Derived
		}
		fi, err := os.Lstat(abs)
		if errors.Is(err, fs.ErrNotExist) {
			return fail(hosterr.Conflict, "Workspace entry changed while taking a mutation snapshot: '%s'.", p)
		}
		if err != nil {
			return ioError(p, err)
		}
		e := SnapshotEntry{Path: p, Kind: kindOf(fi.Mode()), EvidenceClass: class}
		switch e.Kind {
		case KindDirectory:
			e.Fingerprint = directoryFingerprint
			s.entries = append(s.entries, e)
			if err := s.visit(p, abs, class == Derived); err != nil {
				return err
			}
			continue
		case KindSymlink:
			target, err := os.Readlink(abs)
			if err != nil {
				return ioError(p, err)
			}
			if err := restat(abs, p, fi); err != nil {
				return err
			}
			e.Fingerprint = symlinkFingerprint(target)
		case KindFile:
			if class == Derived {
				if err := restat(abs, p, fi); err != nil {
					return err
				}
				e.Fingerprint = metadataFingerprint(fi)
				break
			}
			if s.hashed += fi.Size(); s.hashed > s.opts.MaxHashedBytes {
				return fail(hosterr.LimitExceeded, "Workspace mutation snapshot exceeded %d hashed bytes.", s.opts.MaxHashedBytes)
			}
			h := sha256.New()
			if err := readStable(abs, p, fi, h); err != nil {
				return err
			}
			e.Fingerprint = hex.EncodeToString(h.Sum(nil))
		default:
			if err := restat(abs, p, fi); err != nil {
				return err
			}
			e.Fingerprint = otherFingerprint(fi)
		}
		s.entries = append(s.entries, e)
	}
	after, err := os.Lstat(dirAbs)
	if err != nil || !stable(before, after) {
		return fail(hosterr.Conflict, "Workspace directory changed while taking a mutation snapshot: '%s'.", dirRel)
	}
	return nil
}

// walkNames lists the entries a traversal visits in the directory dirAbs,
// in UTF-16 order: every name but lock files, and but .git with skipGit.
// Its error is the workspace's I/O error for dirRel.
func walkNames(dirRel, dirAbs string, skipGit bool) ([]string, error) {
	names, err := readNames(dirAbs)
	if err != nil {
		return nil, ioError(dirRel, err)
	}
	return slices.DeleteFunc(names, func(name string) bool {
		return strings.HasSuffix(name, LockSuffix) || (skipGit && name == ".git")
	}), nil
}

// readNames lists a directory's entry names in UTF-16 order.
func readNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(names, compareUTF16)
	return names, nil
}

// restat requires an entry to be unchanged since fi was taken.
func restat(abs, rel string, fi fs.FileInfo) error {
	again, err := os.Lstat(abs)
	if err != nil || !stable(fi, again) {
		return fail(hosterr.Conflict, "Workspace entry changed while taking a mutation snapshot: '%s'.", rel)
	}
	return nil
}

// readStable copies exactly fi.Size() bytes of the regular file at abs to w,
// requiring the opened file to be the one fi describes and to stay
// unchanged while it is read.
func readStable(abs, rel string, fi fs.FileInfo, w io.Writer) error {
	changed := fail(hosterr.Conflict, "Workspace file changed while it was read: '%s'.", rel)
	f, err := os.Open(abs)
	if err != nil {
		return ioError(rel, err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil || !os.SameFile(fi, opened) {
		return changed
	}
	n, err := io.CopyN(w, f, fi.Size())
	if n != fi.Size() {
		return changed
	}
	if err != nil {
		return ioError(rel, err)
	}
	return restat(abs, rel, fi)
}

func symlinkFingerprint(target string) string { return sha256Text("symlink\x00" + target) }

func otherFingerprint(fi fs.FileInfo) string {
	return sha256Text("other\x00" + strconv.FormatUint(uint64(metaOf(fi).mode), 10))
}

// metadataFingerprint binds a derived file's identity and metadata without
// reading it.
func metadataFingerprint(fi fs.FileInfo) string {
	m := metaOf(fi)
	return sha256Text(fmt.Sprintf(`["file-metadata-v1",%d,%d,%d,%d,%d,%d]`, m.dev, m.ino, m.mode, fi.Size(), fi.ModTime().UnixNano(), m.ctimeNs))
}

// stateVersion hashes the JSON array [path, kind, class, fingerprint] of
// every entry, one per line.
func stateVersion(entries []SnapshotEntry) string {
	h := sha256.New()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, e := range entries {
		buf.Reset()
		_ = enc.Encode([]string{e.Path, e.Kind, e.EvidenceClass, e.Fingerprint}) // Encode ends with "\n"
		h.Write(buf.Bytes())
	}
	return HashPrefix + hex.EncodeToString(h.Sum(nil))
}
