// Package snapshot takes the harness's own typed snapshot of a workspace:
// every entry's kind and, for files and symlinks, a SHA-256 of its bytes or
// link target. The harness never trusts a host's account of the workspace;
// it compares snapshots taken before and after a run.
package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/galaxy-stack/conform/core/effects"
)

// Entry is one workspace entry. Hash is "" for directories and other
// entries, and for a file the snapshot did not hash: Skipped then says why
// and Size is the file's size, so a change of size still shows in Diff.
type Entry struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"`
	Hash    string `json:"hash,omitempty"`
	Size    int64  `json:"size,omitempty"`
	Skipped string `json:"skipped,omitempty"`
}

// DefaultMaxFileBytes is the largest file a snapshot hashes unless its
// Limits say otherwise: 64 MiB, four times the largest fixture.
const DefaultMaxFileBytes int64 = 64 << 20

// MaxFileBytes is the cap of Limits that set none (conform run and certify
// --max-snapshot-file-size).
var MaxFileBytes = DefaultMaxFileBytes

// Limits bound a snapshot.
type Limits struct {
	// MaxFileBytes is the largest regular file hashed; a larger one (a
	// sparse file of terabytes costs nothing to make) is listed with its
	// size and a Skipped reason instead. Zero means MaxFileBytes.
	MaxFileBytes int64
}

func (l Limits) maxFile() int64 {
	if l.MaxFileBytes > 0 {
		return l.MaxFileBytes
	}
	return MaxFileBytes
}

// A Snapshot is the sorted list of a workspace's entries, by
// workspace-relative slash path. The root itself is not listed.
type Snapshot []Entry

// Ignored lists directory names the snapshot skips: the git baseline the
// harness itself keeps.
var Ignored = map[string]bool{".git": true}

// Take snapshots the tree under root with the default limits.
func Take(root string) (Snapshot, error) {
	return TakeContext(context.Background(), root, Limits{})
}

// TakeContext snapshots the tree under root within lim, and stops with
// ctx's cause when ctx ends, between two entries or while a file is
// hashed.
func TakeContext(ctx context.Context, root string, lim Limits) (Snapshot, error) {
	var out Snapshot
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() && Ignored[d.Name()] {
			return filepath.SkipDir
		}
		e := Entry{Path: rel}
		switch t := d.Type(); {
		case t.IsRegular():
			e.Kind = effects.KindFile
			if e.Hash, e.Size, e.Skipped, err = hashFile(ctx, p, lim.maxFile()); err != nil {
				return err
			}
		case t.IsDir():
			e.Kind = effects.KindDirectory
		case t&fs.ModeSymlink != 0:
			e.Kind = effects.KindSymlink
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			e.Hash = hashBytes([]byte(filepath.ToSlash(target)))
		default:
			e.Kind = effects.KindOther
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot of %q: %w", root, err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// hashFile hashes the regular file at p. It opens without blocking or
// following a link and checks the opened file is still regular, so an
// entry a host swapped for a FIFO or a link after the walk saw a file
// cannot stall or redirect the snapshot. A file over max bytes is not
// hashed: it returns its size and the reason instead.
func hashFile(ctx context.Context, p string, max int64) (hash string, size int64, skipped string, err error) {
	f, err := os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return "", 0, "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", 0, "", fmt.Errorf("%s changed while it was being snapshotted", p)
	}
	if st.Size() > max {
		why := fmt.Sprintf("not hashed: %d bytes, over the snapshot cap of %d bytes", st.Size(), max)
		if a, ok := allocated(st); ok && a < st.Size()/2 {
			why += fmt.Sprintf(" (a sparse file: %d bytes allocated)", a)
		}
		return "", st.Size(), why, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, ctxReader{ctx, io.LimitReader(f, max+1)}); err != nil {
		return "", 0, "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), 0, "", nil
}

// ctxReader stops reading when ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(b []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, context.Cause(c.ctx)
	}
	return c.r.Read(b)
}

func hashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Change is one entry that differs between two snapshots.
type Change struct {
	Path   string `json:"path"`
	Before Entry  `json:"before"`
	After  Entry  `json:"after"`
}

// Diff lists the entries that differ from a to b, sorted by path. An entry
// absent on one side has kind "missing" there.
func Diff(a, b Snapshot) []Change {
	am, bm := index(a), index(b)
	paths := map[string]bool{}
	for p := range am {
		paths[p] = true
	}
	for p := range bm {
		paths[p] = true
	}
	var sorted []string
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	var out []Change
	for _, p := range sorted {
		x, y := am[p], bm[p]
		if x == y {
			continue
		}
		if x.Kind == "" {
			x = Entry{Path: p, Kind: effects.KindMissing}
		}
		if y.Kind == "" {
			y = Entry{Path: p, Kind: effects.KindMissing}
		}
		out = append(out, Change{Path: p, Before: x, After: y})
	}
	return out
}

func index(s Snapshot) map[string]Entry {
	m := make(map[string]Entry, len(s))
	for _, e := range s {
		m[e.Path] = e
	}
	return m
}
