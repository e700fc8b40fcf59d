package command

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// BubblewrapReadOnlyRoots are the system directories bound read-only into
// the sandbox when they exist (LAB_AND_HOSTS §13.4 step 3).
var BubblewrapReadOnlyRoots = []string{"/bin", "/etc", "/lib", "/lib64", "/nix/store", "/opt", "/sbin", "/usr"}

// BubblewrapInput describes one contained launch for [BubblewrapArgs].
type BubblewrapInput struct {
	// Command and Args are the program and arguments to run inside.
	Command string
	Args    []string
	// Cwd is the host path of the working directory; it must be Workspace
	// or beneath it.
	Cwd string
	// Env is the complete environment inside the sandbox.
	Env map[string]string
	// Workspace is the host path bound read-write at /workspace.
	Workspace string
	// UnshareUser adds --unshare-user after --unshare-all. bubblewrap only
	// tries a user namespace for an unprivileged caller, and refuses
	// --disable-userns without one, so a host running as root needs it for
	// the argument list to run at all; for an unprivileged caller it
	// changes nothing --unshare-all did not already do.
	UnshareUser bool
	// Exists reports whether a read-only root exists; nil means os.Stat.
	Exists func(path string) bool
}

// BubblewrapArgs returns the bwrap argument list of LAB_AND_HOSTS §13.4:
// the fixed isolation prefix, a read-only bind of each existing system
// root, the workspace bound at /workspace, one --setenv per variable in
// name order, --chdir to the matching path under /workspace, then "--",
// the command and its arguments. A cwd outside the workspace is an error
// (IO_ERROR "Contained command cwd must remain inside the workspace.").
func BubblewrapArgs(in BubblewrapInput) ([]string, error) {
	rel, err := filepath.Rel(in.Workspace, in.Cwd)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fail(hosterr.IOError, "Contained command cwd must remain inside the workspace.")
	}
	exists := in.Exists
	if exists == nil {
		exists = func(p string) bool { _, err := os.Stat(p); return err == nil }
	}
	args := []string{"--die-with-parent", "--new-session", "--unshare-all"}
	if in.UnshareUser {
		args = append(args, "--unshare-user")
	}
	args = append(args, "--disable-userns", "--cap-drop", "ALL",
		"--clearenv", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp")
	for _, root := range BubblewrapReadOnlyRoots {
		if exists(root) {
			args = append(args, "--ro-bind", root, root)
		}
	}
	args = append(args, "--bind", in.Workspace, "/workspace")
	for _, name := range slices.Sorted(maps.Keys(in.Env)) {
		args = append(args, "--setenv", name, in.Env[name])
	}
	chdir := "/workspace"
	if rel != "." {
		chdir += "/" + filepath.ToSlash(rel)
	}
	args = append(args, "--chdir", chdir, "--", in.Command)
	return append(args, in.Args...), nil
}
