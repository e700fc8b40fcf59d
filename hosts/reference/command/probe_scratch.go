package command

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Scratch directories of the bubblewrap probe. Each probe makes one
// directory galaxy-bwrap-probe-* in the temporary directory, holding its
// workspace and outside directories and a lock file it keeps locked until
// it has removed the directory. A probe whose process ends first (the host
// exits or is killed while the probe runs in the background) cannot remove
// it; the lock dies with the process, so the next probe, finding a
// directory whose lock it can take, removes it. Where file locks are not
// available (not Unix), and for the directories of earlier versions
// (galaxy-bwrap-workspace-*, galaxy-bwrap-outside-*, which have no lock),
// only a directory older than scratchMaxAge is removed.
const (
	scratchPrefix = "galaxy-bwrap-probe-"
	scratchLock   = "lock"
	scratchMaxAge = 10 * time.Minute
)

// legacyScratchPrefixes name the unlocked scratch directories of earlier
// versions of the probe.
var legacyScratchPrefixes = []string{"galaxy-bwrap-workspace-", "galaxy-bwrap-outside-"}

// A scratch is one probe's locked scratch directory.
type scratch struct {
	root string
	lock *os.File
}

// newScratch sweeps abandoned scratch directories from tempDir ("" means
// os.TempDir()) and makes and locks a new one.
func newScratch(tempDir string) (*scratch, error) {
	if tempDir == "" {
		tempDir = os.TempDir()
	}
	sweepScratch(tempDir, time.Now())
	root, err := os.MkdirTemp(tempDir, scratchPrefix)
	if err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(filepath.Join(root, scratchLock), os.O_CREATE|os.O_RDWR, 0o600)
	if err == nil {
		if err = lockFile(lock); err != nil {
			lock.Close()
		}
	}
	if err != nil {
		os.RemoveAll(root)
		return nil, err
	}
	return &scratch{root: root, lock: lock}, nil
}

// dir makes the directory name inside the scratch directory and returns its
// path with symbolic links resolved.
func (s *scratch) dir(name string) (string, error) {
	p := filepath.Join(s.root, name)
	if err := os.Mkdir(p, 0o700); err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(p)
}

// remove removes the scratch directory, then releases its lock. A
// directory that cannot be removed stays locked until the process ends and
// is then the next probe's to sweep.
func (s *scratch) remove() error {
	err := os.RemoveAll(s.root)
	if err != nil {
		// A read-only directory made inside the sandbox: make it writable
		// and try once more.
		_ = filepath.WalkDir(s.root, func(p string, d fs.DirEntry, werr error) error {
			if werr == nil && d.IsDir() {
				_ = os.Chmod(p, 0o700)
			}
			return nil
		})
		err = os.RemoveAll(s.root)
	}
	s.lock.Close()
	return err
}

// sweepScratch removes the scratch directories in tempDir that no running
// probe owns.
func sweepScratch(tempDir string, now time.Time) {
	entries, err := os.ReadDir(tempDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, "galaxy-bwrap-") {
			continue
		}
		p := filepath.Join(tempDir, name)
		if strings.HasPrefix(name, scratchPrefix) && abandoned(p) {
			os.RemoveAll(p)
			continue
		}
		for _, prefix := range append([]string{scratchPrefix}, legacyScratchPrefixes...) {
			if info, err := e.Info(); err == nil && strings.HasPrefix(name, prefix) && now.Sub(info.ModTime()) > scratchMaxAge {
				os.RemoveAll(p)
				break
			}
		}
	}
}

// abandoned reports whether the scratch directory dir has a lock file
// that no process holds.
func abandoned(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, scratchLock), os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return tryLockFile(f)
}
