package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// makeEntries makes the fixture's conform.entries in the workspace root:
// symbolic links (a $OUTSIDE/ target resolved against outside), empty
// directories and FIFOs, each with its parent directories.
func makeEntries(root, outside string, entries []fixture.Entry) error {
	for _, e := range entries {
		abs := filepath.Join(root, filepath.FromSlash(e.Path))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return fmt.Errorf("unable to make entry %q: %w", e.Path, err)
		}
		var err error
		switch e.Kind {
		case fixture.EntrySymlink:
			err = os.Symlink(filepath.FromSlash(e.ResolveTarget(outside)), abs)
		case fixture.EntryDirectory:
			err = os.Mkdir(abs, 0o755)
		case fixture.EntryFIFO:
			err = mkfifo(abs)
		default:
			err = fmt.Errorf("unknown kind %q", e.Kind)
		}
		if err != nil {
			return fmt.Errorf("unable to make entry %q: %w", e.Path, err)
		}
	}
	return nil
}

// outsideCheck is the harness's view of the directory beside the
// workspace: what it held before the run, to compare with after.
type outsideCheck struct {
	dir    string
	before snapshot.Snapshot
}

// prepareOutside writes the fixture's outsideFiles into dir and snapshots
// it. A fixture without outside files and without a directory gets no
// check.
func prepareOutside(dir string, files []fixture.File) (*outsideCheck, error) {
	if dir == "" {
		if len(files) > 0 {
			return nil, fmt.Errorf("the fixture has conform.outsideFiles but the run has no outside directory")
		}
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := arrange(dir, files); err != nil {
		return nil, fmt.Errorf("outside directory: %w", err)
	}
	before, err := snapshot.Take(dir)
	if err != nil {
		return nil, fmt.Errorf("snapshotting the outside directory: %w", err)
	}
	return &outsideCheck{dir: dir, before: before}, nil
}

// changes lists what changed in the outside directory since prepareOutside.
func (o *outsideCheck) changes() ([]snapshot.Change, error) {
	after, err := snapshot.Take(o.dir)
	if err != nil {
		return nil, err
	}
	return snapshot.Diff(o.before, after), nil
}

// describeChanges lists changes as "path (before → after)", one per change.
func describeChanges(changes []snapshot.Change) string {
	var b strings.Builder
	for i, c := range changes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%s → %s)", c.Path, c.Before.Kind, c.After.Kind)
	}
	return b.String()
}
