package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// An Entry is one traversal result (CONTRACTS §6.1 FILE_ENTRY). Path is
// root-relative with "/" separators; Kind is file, directory, symlink or
// other, classified without following links.
type Entry struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	Path string `json:"path"`
}

// traverse lists the entries below the directory rel depth-first, children
// in UTF-16 order, skipping the excluded directory names and lock files
// (LAB_AND_HOSTS §10.3). depth 1 lists immediate children; depth < 0 is
// unbounded. Symlinked directories are listed as symlinks and not entered.
// It returns the root-relative path of the resolved base directory too.
func (r *Root) traverse(ctx context.Context, rel string, depth int) (string, []Entry, error) {
	if err := checkContext(ctx); err != nil {
		return "", nil, err
	}
	real, baseRel, err := r.resolveExisting(rel)
	if err != nil {
		return "", nil, err
	}
	fi, err := os.Lstat(real)
	if err != nil {
		return "", nil, ioError(rel, err)
	}
	if !fi.IsDir() {
		return "", nil, fail(hosterr.InvalidInput, "Workspace traversal requires a directory path.")
	}
	var out []Entry
	var visit func(dirRel string, remaining int) error
	visit = func(dirRel string, remaining int) error {
		if err := checkContext(ctx); err != nil {
			return err
		}
		// Re-resolve each directory through the scope: a directory swapped
		// for an escaping symlink after it was listed is refused.
		dir, dirRealRel, err := r.resolveExisting(dirRel)
		if err != nil {
			return err
		}
		children, err := os.ReadDir(dir)
		if err != nil {
			return ioError(dirRel, err)
		}
		slices.SortFunc(children, func(a, b os.DirEntry) int { return compareUTF16(a.Name(), b.Name()) })
		for _, child := range children {
			name := child.Name()
			kind := kindOf(child.Type())
			if kind == KindDirectory && r.excluded(name) {
				continue
			}
			if strings.HasSuffix(name, LockSuffix) {
				continue
			}
			p := joinRel(dirRealRel, name)
			out = append(out, Entry{Kind: kind, Name: name, Path: p})
			if len(out) > r.maxEntries {
				return fail(hosterr.LimitExceeded, "Workspace scan exceeded %d entries.", r.maxEntries)
			}
			if kind == KindDirectory && (remaining < 0 || remaining > 1) {
				next := remaining
				if next > 0 {
					next--
				}
				if err := visit(p, next); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := visit(baseRel, depth); err != nil {
		return "", nil, err
	}
	return baseRel, out, nil
}

// joinRel joins a root-relative directory and a child name.
func joinRel(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// relToBase returns p relative to the root-relative directory base.
func relToBase(base, p string) string {
	if base == "." {
		return p
	}
	if p == base {
		return "."
	}
	return strings.TrimPrefix(p, base+"/")
}

// absOf joins a clean root-relative path to the root.
func (r *Root) absOf(rel string) string {
	if rel == "." {
		return r.dir
	}
	return filepath.Join(r.dir, filepath.FromSlash(rel))
}
