package reference

import (
	"context"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// fingerprint answers workspace/fingerprint (CONTRACTS §13.8, LAB §15):
// capture binds the active files and the dirty-state summary to the
// relevant-workspace fingerprint; verify re-reads the workspace and
// compares. Failures are port failures and never retryable.
func (s *session) fingerprint(ctx context.Context, p wire.FingerprintParams) (wire.FingerprintResult, error) {
	switch p.Action {
	case wire.FingerprintCapture:
		st, err := s.root.CaptureState(ctx, toActive(p.ActiveFiles), p.DirtyStateSummary)
		if err != nil {
			return wire.FingerprintResult{}, fingerprintFailure(err)
		}
		ws := wire.WorkspaceState{ActiveFiles: fromActive(st.ActiveFiles), DirtyStateSummary: st.DirtyStateSummary, StateFingerprint: st.StateFingerprint}
		return wire.FingerprintResult{Consistency: workspace.Consistency, State: &ws}, nil
	case wire.FingerprintVerify:
		if s.faults.FingerprintAlwaysMatches && p.State != nil {
			return alwaysMatches(*p.State), nil
		}
		st := workspace.WorkspaceState{ActiveFiles: toActive(p.State.ActiveFiles), DirtyStateSummary: p.State.DirtyStateSummary, StateFingerprint: p.State.StateFingerprint}
		v, err := s.root.VerifyState(ctx, st)
		if err != nil {
			return wire.FingerprintResult{}, fingerprintFailure(err)
		}
		m := v.Matches
		return wire.FingerprintResult{CurrentFingerprint: v.CurrentFingerprint, Matches: &m}, nil
	}
	return wire.FingerprintResult{}, invalidParams("unknown action %q", p.Action)
}

func fingerprintFailure(err error) error {
	return wire.PortFailure(&port.Error{Code: string(workspace.CodeOf(err)), Message: portMessage(err)})
}

func toActive(in []wire.ActiveFile) []workspace.ActiveFile {
	out := make([]workspace.ActiveFile, len(in))
	for i, a := range in {
		out[i] = workspace.ActiveFile{Path: a.Path, Kind: a.Kind, ContentHash: a.ContentHash}
	}
	return out
}

func fromActive(in []workspace.ActiveFile) []wire.ActiveFile {
	out := make([]wire.ActiveFile, len(in))
	for i, a := range in {
		out[i] = wire.ActiveFile{Path: a.Path, Kind: a.Kind, ContentHash: a.ContentHash}
	}
	return out
}
