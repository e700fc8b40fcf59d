package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/internal/wsfs"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// makeEntries makes the fixture's entries (conform.entries, or
// conform.entriesBeforeResume for stage) in the workspace root: symbolic
// links (a $OUTSIDE/ target resolved against outside), empty directories
// and FIFOs, each with its parent directories. Like arrange, every change
// goes through root and follows no link; a link whose target names .git
// is refused too, so no later path reaches the baseline through it.
func makeEntries(ctx context.Context, root *wsfs.Root, outside, stage string, entries []fixture.Entry) error {
	for _, e := range entries {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		var err error
		switch e.Kind {
		case fixture.EntrySymlink:
			if err = refuseGitTarget(e.Target); err == nil {
				err = root.Symlink(filepath.FromSlash(e.ResolveTarget(outside)), e.Path)
			}
		case fixture.EntryDirectory:
			err = root.Mkdir(e.Path)
		case fixture.EntryFIFO:
			err = root.Mkfifo(e.Path)
		default:
			err = fmt.Errorf("unknown kind %q", e.Kind)
		}
		if err != nil {
			return &arrangeError{stage, e.Path, err}
		}
	}
	return nil
}

// refuseGitTarget refuses a link target with a .git segment.
func refuseGitTarget(target string) error {
	for seg := range strings.SplitSeq(strings.ReplaceAll(target, "\\", "/"), "/") {
		if strings.EqualFold(seg, ".git") {
			return fmt.Errorf("link target %q: %w", target, wsfs.ErrGit)
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
func prepareOutside(ctx context.Context, dir string, files []fixture.File) (*outsideCheck, error) {
	if dir == "" {
		if len(files) > 0 {
			return nil, fmt.Errorf("the fixture has conform.outsideFiles but the run has no outside directory")
		}
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	root, err := openRoot("conform.outsideFiles", dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if err := arrange(ctx, root, "conform.outsideFiles", files); err != nil {
		return nil, err
	}
	before, err := snapshot.TakeContext(ctx, dir, snapshot.Limits{})
	if err != nil {
		return nil, fmt.Errorf("snapshotting the outside directory: %w", err)
	}
	return &outsideCheck{dir: dir, before: before}, nil
}

// changes lists what changed in the outside directory since prepareOutside.
func (o *outsideCheck) changes(ctx context.Context) ([]snapshot.Change, error) {
	after, err := snapshot.TakeContext(ctx, o.dir, snapshot.Limits{})
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
