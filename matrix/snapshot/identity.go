package snapshot

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
)

// Identities records the file identity (device and inode, where the
// platform has them) of every regular file under root, by slash path, so
// that a later check can tell a file rewritten in place from one replaced
// by another inode.
type Identities map[string]os.FileInfo

// TakeIdentities records the identities of the regular files under root,
// skipping Ignored directories. It stops with ctx's cause when ctx ends.
func TakeIdentities(ctx context.Context, root string) (Identities, error) {
	ids := Identities{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if err != nil {
			return err
		}
		if d.IsDir() && Ignored[d.Name()] {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		ids[filepath.ToSlash(rel)] = info
		return nil
	})
	return ids, err
}

// SameFile reports whether rel under root is still the file recorded in
// ids: the same inode (os.SameFile), not a replacement.
func (ids Identities) SameFile(root, rel string) (bool, error) {
	before, ok := ids[rel]
	if !ok {
		return false, os.ErrNotExist
	}
	now, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return false, err
	}
	return os.SameFile(before, now), nil
}
