package reference

import (
	"context"

	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

// baseline takes the snapshot a mutating tool is bracketed with
// (LAB §20.3). A failure is a typed error: the adapter is never called.
func (s *session) baseline(ctx context.Context) (workspace.Snapshot, error) {
	snap, err := s.root.Snapshot(ctx, workspace.DefaultSnapshotOptions())
	if err != nil {
		code := portCode(err)
		if code == "" {
			code = "IO_ERROR"
		}
		return workspace.Snapshot{}, &toolError{Code: code,
			Message: "Unable to establish the workspace mutation baseline before tool side effects: " + portMessage(err)}
	}
	return snap, nil
}

// observe takes the after snapshot and diffs it with before. It runs even
// when the call was canceled, since the workspace may have changed; a
// failure means the outcome is unknown.
func (s *session) observe(ctx context.Context, before workspace.Snapshot) (workspace.Diff, error) {
	after, err := s.root.Snapshot(context.WithoutCancel(ctx), workspace.DefaultSnapshotOptions())
	if err != nil {
		return workspace.Diff{}, unknownf("the workspace could not be captured after the call: %v", err)
	}
	d, err := workspace.DiffSnapshots(before, after)
	if err != nil {
		return workspace.Diff{}, unknownf("the workspace changes could not be derived: %v", err)
	}
	if s.faults.DerivedAsWrite {
		d = derivedWrites(d)
	}
	if s.faults.UntypedEntryWrites {
		d = untypedWrites(d)
	}
	d = s.evidenceFaults(d)
	if s.faults.DerivedStateUnversioned && len(d.Writes) == 0 {
		d.StateVersion = ""
	}
	return d, nil
}
