package workspace

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// targetState is what a text mutation found at its target.
type targetState struct {
	rel     string
	exists  bool
	regular bool
	perm    fs.FileMode
	data    []byte // content of a regular file, valid UTF-8 unless notUTF8
	// notUTF8 marks raw bytes that are not UTF-8, kept only under the
	// PreconditionFirst choice for the precondition to see.
	notUTF8 bool
}

// readTarget reads the mutation target without following a final link. A
// regular file must be at most MaxReadFileBytes of valid UTF-8; invalid
// UTF-8 is INVALID_INPUT and is never rewritten (S000 item 32).
func (r *Root) readTarget(abs, rel string) (targetState, error) {
	fi, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return targetState{rel: rel}, nil
	}
	if err != nil {
		return targetState{}, ioError(rel, err)
	}
	st := targetState{rel: rel, exists: true, regular: fi.Mode().IsRegular(), perm: fi.Mode().Perm()}
	if !st.regular {
		return st, nil
	}
	if fi.Size() > MaxReadFileBytes {
		return targetState{}, fail(hosterr.LimitExceeded, "Text file exceeds the %d byte host limit.", MaxReadFileBytes)
	}
	if st.data, err = os.ReadFile(abs); err != nil {
		return targetState{}, ioError(rel, err)
	}
	if !utf8.Valid(st.data) && !r.faults.RawBytesMutations {
		if r.faults.DecodeInvalidUTF8 {
			st.data = lossyUTF8(st.data)
			return st, nil
		}
		if r.choices.PreconditionFirst {
			st.notUTF8 = true
			return st, nil
		}
		return targetState{}, invalidUTF8(rel)
	}
	return st, nil
}

// committed describes a successful text commit.
type committed struct {
	abs     string
	clean   string
	before  targetState
	after   []byte
	created []string // directories created for the target, shallowest first
}

// writes is the typed mutation evidence of the commit (CONTRACTS §7.6):
// every created directory and the target, sorted by path.
func (c committed) writes() []port.Write {
	var out []port.Write
	for _, d := range c.created {
		out = append(out, port.Write{Path: d, BeforeKind: KindMissing, AfterKind: KindDirectory})
	}
	w := port.Write{Path: c.clean, BeforeKind: KindMissing, AfterKind: KindFile, AfterHash: evidenceHash(SHA256Hex(c.after))}
	if c.before.exists {
		w.BeforeKind, w.BeforeHash = KindFile, evidenceHash(SHA256Hex(c.before.data))
	}
	out = append(out, w)
	slices.SortFunc(out, func(a, b port.Write) int { return compareUTF16(a.Path, b.Path) })
	return out
}

// commitText is the one serialized commit of every text mutation
// (LAB_AND_HOSTS §10.6): under the Root's mutex and the target's lock file
// it reads the target, lets decide check the precondition and compute the
// new content, writes a synced temporary file in the target's directory
// and links it into place (create) or renames it over the target
// (replace). Any failure leaves the target's bytes and inode untouched and
// removes the temporary file and the directories this call created.
func (r *Root) commitText(ctx context.Context, rel string, createParents bool, decide func(targetState) ([]byte, error)) (committed, error) {
	if err := checkContext(ctx); err != nil {
		return committed{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	abs, clean, err := r.resolveForWrite(rel, false)
	if err != nil {
		return committed{}, err
	}
	var created []string
	if createParents {
		created, err = r.makeDirs(rel, path.Dir(clean))
		if err == nil {
			abs, clean, err = r.resolveForWrite(rel, false)
		}
		if err != nil {
			r.removeCreated(created)
			return committed{}, err
		}
	}
	if _, err := os.Lstat(filepath.Dir(abs)); !createParents && errors.Is(err, fs.ErrNotExist) {
		// No parent, no target: let the precondition speak, without
		// creating anything.
		if _, err := decide(targetState{rel: clean}); err != nil {
			return committed{}, err
		}
		return committed{}, fail(hosterr.NotFound, "Workspace path does not exist: '%s'.", rel)
	}
	c, err := r.commitLocked(ctx, abs, clean, decide)
	if err != nil {
		r.removeCreated(created)
		return committed{}, err
	}
	c.created = created
	return c, nil
}

func (r *Root) commitLocked(ctx context.Context, abs, clean string, decide func(targetState) ([]byte, error)) (committed, error) {
	release, err := lockTarget(abs, clean)
	if err != nil {
		return committed{}, err
	}
	defer release()
	cur, err := r.readTarget(abs, clean)
	if err != nil {
		if r.faults.ReplaceInodeOnFailure && CodeOf(err) == hosterr.InvalidInput {
			replaceUndecodable(abs, clean)
		}
		return committed{}, err
	}
	if cur.notUTF8 {
		// PreconditionFirst: a failed precondition speaks first, then the
		// bytes are refused whatever decide made of them.
		if _, err := decide(cur); CodeOf(err) == hosterr.PreconditionFailed {
			return committed{}, err
		}
		return committed{}, invalidUTF8(clean)
	}
	next, err := decide(cur)
	if err != nil {
		if r.faults.ReplaceInodeOnFailure && cur.exists && cur.regular {
			replaceInode(abs, cur)
		}
		return committed{}, err
	}
	if cur.exists && cur.regular && bytes.Equal(cur.data, next) {
		return committed{}, fail(hosterr.Conflict, "The requested write would not change the target content.")
	}
	perm := fs.FileMode(0o600)
	if cur.exists {
		perm = cur.perm
	}
	tmp, err := writeTemp(abs, clean, next, perm)
	if err != nil {
		return committed{}, err
	}
	done := false
	defer func() {
		if !done {
			_ = os.Remove(tmp)
		}
	}()
	if err := checkContext(ctx); err != nil {
		return committed{}, err
	}
	if _, _, err := r.resolveForWrite(clean, false); err != nil {
		return committed{}, err
	}
	latest, err := r.readTarget(abs, clean)
	if err != nil {
		return committed{}, err
	}
	if latest.exists != cur.exists || latest.regular != cur.regular || !bytes.Equal(latest.data, cur.data) {
		return committed{}, fail(hosterr.PreconditionFailed, "The target changed while preparing the write.")
	}
	if cur.exists && r.faults.WriteInPlace {
		if err := rewriteInPlace(abs, next); err != nil {
			return committed{}, ioError(clean, err)
		}
	} else if cur.exists {
		if err := os.Rename(tmp, abs); err != nil {
			return committed{}, ioError(clean, err)
		}
		done = true
	} else {
		linked, err := createFrom(tmp, abs, clean)
		if err != nil {
			return committed{}, err
		}
		done = true
		if linked {
			// A hard link leaves tmp ours to remove; after a rename its
			// name may already be another's.
			_ = os.Remove(tmp)
		}
	}
	syncDir(filepath.Dir(abs))
	return committed{abs: abs, clean: clean, before: cur, after: next}, nil
}

// createFrom links tmp to the missing target, so an entry that appeared
// meanwhile is never replaced. Where hard links are unsupported it renames
// instead, after checking under the lock that the target is still missing.
// linked reports that tmp was linked, so its name is still the caller's.
func createFrom(tmp, abs, rel string) (linked bool, err error) {
	err = os.Link(tmp, abs)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, fs.ErrExist) {
		return false, &hosterr.Error{Library: library, Code: hosterr.AlreadyExists, Message: "The target already exists.", Err: err}
	}
	if _, lerr := os.Lstat(abs); lerr == nil {
		return false, fail(hosterr.AlreadyExists, "The target already exists.")
	}
	if err := os.Rename(tmp, abs); err != nil {
		return false, ioError(rel, err)
	}
	return false, nil
}

// lockTarget creates the target's lock file exclusively; another holder
// (another process on the same workspace) makes the mutation UNAVAILABLE.
func lockTarget(abs, rel string) (release func(), err error) {
	lockPath := abs + LockSuffix
	f, err := os.OpenFile(lockPath, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil, &hosterr.Error{Library: library, Code: hosterr.Unavailable, Message: "Another mutation is already in progress for this path.", Err: err}
	}
	if err != nil {
		return nil, ioError(rel, err)
	}
	return func() {
		_ = f.Close()
		_ = os.Remove(lockPath)
	}, nil
}

// writeTemp writes content to a new, synced temporary file beside abs with
// the given permission bits and returns its path.
func writeTemp(abs, rel string, content []byte, perm fs.FileMode) (string, error) {
	var nonce [12]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return "", ioError(rel, err)
	}
	tmp := filepath.Join(filepath.Dir(abs), "."+filepath.Base(abs)+"."+hex.EncodeToString(nonce[:])+".tmp")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", ioError(rel, err)
	}
	werr := func() error {
		if perm != 0o600 {
			if err := f.Chmod(perm); err != nil {
				return err
			}
		}
		if _, err := f.Write(content); err != nil {
			return err
		}
		return f.Sync()
	}()
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = os.Remove(tmp)
		return "", ioError(rel, werr)
	}
	return tmp, nil
}

// makeDirs creates every missing directory of the clean root-relative path
// dir and returns the ones it created, shallowest first. An existing
// component must be a real directory.
func (r *Root) makeDirs(rel, dir string) ([]string, error) {
	if dir == "." {
		return nil, nil
	}
	var created []string
	cur := ""
	for _, seg := range strings.Split(dir, "/") {
		cur = joinRel(cur, seg)
		abs := r.absOf(cur)
		err := os.Mkdir(abs, 0o777)
		if err == nil {
			created = append(created, cur)
			continue
		}
		if !errors.Is(err, fs.ErrExist) {
			return created, ioError(rel, err)
		}
		fi, err := os.Lstat(abs)
		if err != nil {
			return created, ioError(rel, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return created, fail(hosterr.PermissionDenied, "Workspace mutation cannot follow symlink '%s'.", rel)
		}
		if !fi.IsDir() {
			return created, fail(hosterr.InvalidInput, "Workspace mutation parent is not a directory: '%s'.", rel)
		}
	}
	return created, nil
}

// removeCreated removes directories this call created, deepest first,
// while they are empty; content created concurrently is never removed.
func (r *Root) removeCreated(created []string) {
	for i := len(created) - 1; i >= 0; i-- {
		if err := os.Remove(r.absOf(created[i])); err != nil {
			return
		}
	}
}
