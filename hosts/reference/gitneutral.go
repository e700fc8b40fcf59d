package reference

import (
	"context"

	"github.com/galaxy-stack/conform/internal/gitsafe"
)

// git.exec runs every git command through package gitsafe: its options and
// environment neutralise what the workspace's configuration could make git
// run; see that package for each setting and the residual risk.

// neutralGitArgs returns the global options that neutralise the
// configuration, including the filter drivers named in drivers.
func neutralGitArgs(drivers []string) []string { return gitsafe.Args(drivers) }

// filterDriversIn returns the filter drivers the configuration seen from
// root defines.
func filterDriversIn(ctx context.Context, git, root string, env []string) []string {
	return gitsafe.FilterDrivers(ctx, git, root, env)
}

// gitEnv is the minimal environment git runs with in the workspace root:
// PATH and the temporary directories only, never the user's configuration,
// with the work tree pinned to the root.
func gitEnv(root string) []string {
	return gitsafe.Env(root, []string{"PATH", "SystemRoot", "TMPDIR", "TMP", "TEMP"}, "GIT_WORK_TREE="+root)
}
