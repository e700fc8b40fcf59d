package workspace

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/internal/filehash"
)

// A ListRequest asks for one page of the entries below Path. Depth 0 means
// 1 (immediate children) and must otherwise be 1..MaxListDepth; Limit 0
// means DefaultPageLimit; Cursor is a previous NextCursor or "".
type ListRequest struct {
	Path   string
	Depth  int
	Limit  int
	Cursor string
}

// A ListResult is one page of a List traversal.
type ListResult struct {
	Entries    []Entry    `json:"entries"`
	Pagination Pagination `json:"pagination"`
}

// List pages over the traversal of a directory (LAB_AND_HOSTS §10.4
// listDir). The order is deterministic: depth-first, children in UTF-16
// order.
func (r *Root) List(ctx context.Context, req ListRequest) (ListResult, error) {
	if r.faults.IgnorePageLimit {
		req.Limit = MaxPageLimit
	}
	depth := req.Depth
	if depth == 0 {
		depth = 1
	}
	if depth < 1 || depth > MaxListDepth {
		return ListResult{}, fail(hosterr.InvalidInput, "Depth must be between 1 and %d.", MaxListDepth)
	}
	if r.faults.IgnoreListDepth {
		depth = MaxListDepth
	}
	_, entries, err := r.traverse(ctx, req.Path, depth)
	if err != nil {
		return ListResult{}, err
	}
	page, p, err := pageOf(entries, req.Cursor, req.Limit)
	if err != nil {
		return ListResult{}, err
	}
	p.NextCursor = r.misplacedCursor(p.NextCursor)
	return ListResult{Entries: page, Pagination: p}, nil
}

// A StatResult describes one path without following a final symlink.
// Kind is file, directory, symlink, other or missing; the other fields are
// absent for a missing path. ContentSha256 is the raw-bytes hash, present
// only for regular files of at most MaxReadFileBytes.
type StatResult struct {
	Kind          string   `json:"kind"`
	Size          *int64   `json:"size,omitempty"`
	MtimeMs       *float64 `json:"mtimeMs,omitempty"`
	ContentSha256 string   `json:"contentSha256,omitempty"`
}

// Stat describes rel (LAB_AND_HOSTS §10.4 stat). Unlike the original, the
// parent directory is resolved through the scope first, so a path below an
// escaping symlink is PERMISSION_DENIED rather than described; a missing
// parent makes the path missing.
func (r *Root) Stat(ctx context.Context, rel string) (StatResult, error) {
	if err := checkContext(ctx); err != nil {
		return StatResult{}, err
	}
	_, clean, err := r.lexical(rel)
	if err != nil {
		return StatResult{}, err
	}
	target := r.dir
	if clean != "." {
		parent, _, err := r.resolveExisting(path.Dir(clean))
		if CodeOf(err) == hosterr.NotFound || CodeOf(err) == hosterr.InvalidInput {
			return StatResult{Kind: KindMissing}, nil
		}
		if err != nil {
			return StatResult{}, err
		}
		target = filepath.Join(parent, path.Base(clean))
	}
	fi, err := os.Lstat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return StatResult{Kind: KindMissing}, nil
	}
	if err != nil {
		return StatResult{}, ioError(rel, err)
	}
	size := fi.Size()
	mtime := float64(fi.ModTime().UnixNano()) / 1e6
	res := StatResult{Kind: kindOf(fi.Mode()), Size: &size, MtimeMs: &mtime}
	if res.Kind == KindFile && size <= MaxReadFileBytes {
		h, err := filehash.SHA256(target)
		if err != nil {
			return StatResult{}, ioError(rel, err)
		}
		res.ContentSha256 = h
	}
	return res, nil
}
