package command

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// maxHardLinkScan bounds the entries the hard-link preflight visits.
const maxHardLinkScan = 100000

// CheckHardLinks is the hard-link preflight run before every contained
// command (LAB_AND_HOSTS §13.5): it walks the whole workspace, .git
// included, without following symlinks, and refuses a regular file with
// more than one link, since a write through it would reach an inode
// outside the sandbox. More than 100000 entries is LIMIT_EXCEEDED; a hard
// link is PERMISSION_DENIED naming the workspace-relative path.
func CheckHardLinks(workspace string) error {
	entries := 0
	var visit func(dir string) error
	visit = func(dir string) error {
		children, err := os.ReadDir(dir)
		if err != nil {
			return &hosterr.Error{Library: library, Code: codeOfFS(err), Message: "Contained command hard-link scan could not read the workspace.", Err: err}
		}
		for _, child := range children {
			entries++
			if entries > maxHardLinkScan {
				return fail(hosterr.LimitExceeded, "Contained command hard-link scan exceeded %d workspace entries.", maxHardLinkScan)
			}
			path := filepath.Join(dir, child.Name())
			info, err := os.Lstat(path)
			if err != nil {
				return &hosterr.Error{Library: library, Code: codeOfFS(err), Message: "Contained command hard-link scan could not read the workspace.", Err: err}
			}
			switch {
			case info.Mode()&os.ModeSymlink != 0:
			case info.IsDir():
				if err := visit(path); err != nil {
					return err
				}
			case info.Mode().IsRegular() && linkCount(info) > 1:
				rel, _ := filepath.Rel(workspace, path)
				return &hosterr.Error{Library: library, Code: hosterr.PermissionDenied, Message: fmt.Sprintf("Contained command refused hard-linked workspace file '%s'.", rel)}
			}
		}
		return nil
	}
	return visit(workspace)
}
