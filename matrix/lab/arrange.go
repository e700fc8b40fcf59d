package lab

import (
	"context"
	"errors"
	"fmt"
	"github.com/galaxy-stack/conform/internal/gitsafe"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/internal/wsfs"
	"github.com/galaxy-stack/conform/matrix/fixture"
)

// arrange writes files into the workspace root as the original lab arranges
// initialFiles and mutateBeforeResume (LAB §3.3): a regular file that already
// holds the content is left alone, so identical campaign stages arrange
// idempotently; a missing file is created with its parent directories and
// permission 0600; a file with other content is replaced keeping its
// permission bits; any other kind of entry at the path is an error.
//
// Every change goes through root (package wsfs): no link is followed, in a
// parent component or at the path, and .git is refused. A path the
// workspace refuses is an *arrangeError naming it; when ctx ends, arrange
// stops between two files and returns ctx's cause.
func arrange(ctx context.Context, root *wsfs.Root, stage string, files []fixture.File) error {
	for _, f := range files {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		st, err := root.Lstat(f.Path)
		perm := fs.FileMode(0o600)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return &arrangeError{stage, f.Path, err}
		case st.Mode().IsRegular():
			// One byte more than the content tells a longer file apart
			// without reading all of it.
			old, err := root.ReadFile(f.Path, int64(len(f.Content)))
			if err == nil && string(old) == f.Content {
				continue
			}
			if err != nil && !errors.Is(err, wsfs.ErrTooLarge) {
				return &arrangeError{stage, f.Path, err}
			}
			perm = st.Mode().Perm()
		default:
			return &arrangeError{stage, f.Path, fmt.Errorf("the path is a %s", wsfs.Kind(st.Mode()))}
		}
		if err := root.WriteFile(f.Path, []byte(f.Content), perm); err != nil {
			return &arrangeError{stage, f.Path, err}
		}
	}
	return nil
}

// An arrangeError is a path of the fixture that the workspace refused while
// the harness arranged it: the fixture fails with a reason naming the path,
// and the run goes on with the next fixture.
type arrangeError struct {
	stage string // "initialFiles", "conform.entries", …
	path  string
	err   error
}

func (e *arrangeError) Error() string {
	return fmt.Sprintf("%s: the workspace cannot hold %q: %v", e.stage, e.path, e.err)
}

func (e *arrangeError) Unwrap() error { return e.err }

// openRoot opens dir for the contained operations of an arrangement.
func openRoot(stage, dir string) (*wsfs.Root, error) {
	root, err := wsfs.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: opening %s: %w", stage, dir, err)
	}
	return root, nil
}

// gitTimeout bounds each command of the Git baseline (LAB §3.4).
const gitTimeout = 20 * time.Second

// baselineMarker is the file, inside .git, by which gitBaseline knows a
// repository it made itself. A fixture cannot write it: the loader refuses
// every path under .git.
const baselineMarker = "conform-baseline"

// gitBaseline gives the workspace a Git baseline commit (LAB §3.4): git
// init, add everything, commit with a fixed identity, then the marker
// file .git/conform-baseline. It reports whether the workspace has a
// baseline; a failing command leaves the fixture without Git (git.exec is
// then not offered to the model), as in the original.
//
// A .git directory that holds the marker is a baseline this harness made,
// in the same workspace, for an earlier stage of a campaign: it is kept as
// it is. Any other .git (a file, a link, a directory without the marker)
// was not made by the harness and may carry hostile configuration; the
// fixture then runs without a baseline and the harness runs no git command
// on it. Every command runs with the neutralised configuration of
// [neutralGitArgs] in the environment of [gitEnv].
func gitBaseline(ctx context.Context, root string) (bool, string) {
	dotGit := filepath.Join(root, ".git")
	if st, err := os.Lstat(dotGit); err == nil {
		if m, err := os.Lstat(filepath.Join(dotGit, baselineMarker)); st.IsDir() && err == nil && m.Mode().IsRegular() {
			return true, ""
		}
		return false, "the workspace has a .git the harness did not make; no Git baseline"
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Sprintf("unable to stat .git: %v", err)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return false, "git is not installed"
	}
	steps := [][]string{
		{"init", "--quiet"},
		{"add", "-A"},
		{"-c", "user.name=GalaxyFixture", "-c", "user.email=fixture@local.invalid", "commit", "--quiet", "--no-verify", "--allow-empty", "-m", "fixture-baseline"},
	}
	for i, args := range steps {
		var drivers []string
		if i > 0 {
			drivers = filterDrivers(ctx, git, root)
		}
		cctx, cancel := context.WithTimeout(ctx, gitTimeout)
		cmd := exec.CommandContext(cctx, git, append(neutralGitArgs(drivers), args...)...)
		cmd.Dir = root
		cmd.Env = gitEnv(root)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			return false, fmt.Sprintf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
		}
	}
	if err := os.WriteFile(filepath.Join(dotGit, baselineMarker), []byte("fixture-baseline\n"), 0o644); err != nil {
		return false, fmt.Sprintf("unable to mark the Git baseline: %v", err)
	}
	return true, ""
}

// neutralGitArgs are the global options of every baseline command (see
// package gitsafe). The repository's own .git/config is the one git init
// just wrote, so it defines no filter driver and one a workspace
// .gitattributes names is a no-op; the drivers are emptied all the same.
func neutralGitArgs(drivers []string) []string { return gitsafe.Args(drivers) }

// filterDrivers returns the filter drivers the configuration of root
// defines.
func filterDrivers(ctx context.Context, git, root string) []string {
	cctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	return gitsafe.FilterDrivers(cctx, git, root, gitEnv(root))
}

// gitEnv is the minimal environment of the baseline commands (DECISIONS
// 63): no HOME, system or global configuration, no prompts, and no
// repository found above root.
func gitEnv(root string) []string {
	keep := []string{"PATH", "LANG", "LC_ALL", "TERM", "TMPDIR", "TMP", "TEMP", "SystemRoot", "ComSpec", "PATHEXT"}
	return gitsafe.Env(root, keep, "CI=1", "FORCE_COLOR=0")
}
