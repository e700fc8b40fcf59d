package lab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/matrix/fixture"
)

// arrange writes files into the workspace root as the original lab arranges
// initialFiles and mutateBeforeResume (LAB §3.3): a regular file that already
// holds the content is left alone, so identical campaign stages arrange
// idempotently; a missing file is created with its parent directories and
// permission 0600; a file with other content is replaced keeping its
// permission bits; any other kind of entry at the path is an error.
func arrange(root string, files []fixture.File) error {
	for _, f := range files {
		abs := filepath.Join(root, filepath.FromSlash(f.Path))
		st, err := os.Lstat(abs)
		perm := fs.FileMode(0o600)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return fmt.Errorf("unable to stat %q: %w", f.Path, err)
		case st.Mode().IsRegular():
			old, err := os.ReadFile(abs)
			if err != nil {
				return fmt.Errorf("unable to arrange %q: %w", f.Path, err)
			}
			if bytes.Equal(old, []byte(f.Content)) {
				continue
			}
			perm = st.Mode().Perm()
		default:
			return fmt.Errorf("unable to arrange %q: target is %s", f.Path, kindOf(st.Mode()))
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return fmt.Errorf("unable to arrange %q: %w", f.Path, err)
		}
		if err := writeAtomic(abs, []byte(f.Content), perm); err != nil {
			return fmt.Errorf("unable to arrange %q: %w", f.Path, err)
		}
	}
	return nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	}
	return "other"
}

// writeAtomic replaces path with data through a temporary file in the same
// directory.
func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name)
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(name, path)
}

// gitTimeout bounds each command of the Git baseline (LAB §3.4).
const gitTimeout = 20 * time.Second

// gitBaseline gives the workspace a Git baseline commit unless it already
// has a .git directory (LAB §3.4): git init, add everything, commit with a
// fixed identity. It reports whether the workspace has a baseline; a
// failing command leaves the fixture without Git (git.exec is then not
// offered to the model), as in the original.
func gitBaseline(ctx context.Context, root string) (bool, string) {
	if st, err := os.Stat(filepath.Join(root, ".git")); err == nil && st.IsDir() {
		return true, ""
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return false, "git is not installed"
	}
	steps := [][]string{
		{"init", "--quiet"},
		{"add", "-A"},
		{"-c", "user.name=GalaxyFixture", "-c", "user.email=fixture@local.invalid", "commit", "--quiet", "--allow-empty", "-m", "fixture-baseline"},
	}
	for _, args := range steps {
		cctx, cancel := context.WithTimeout(ctx, gitTimeout)
		cmd := exec.CommandContext(cctx, git, args...)
		cmd.Dir = root
		cmd.Env = gitEnv()
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			return false, fmt.Sprintf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
		}
	}
	return true, ""
}

// gitEnv is the minimal environment of the baseline commands (DECISIONS
// 63): no HOME, so no user configuration applies.
func gitEnv() []string {
	env := []string{"CI=1", "FORCE_COLOR=0", "GIT_CONFIG_NOSYSTEM=1"}
	for _, k := range []string{"PATH", "LANG", "LC_ALL", "TERM", "TMPDIR", "TMP", "TEMP", "SystemRoot", "ComSpec", "PATHEXT"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}
