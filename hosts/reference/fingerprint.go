package reference

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

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
		st, err := s.root.CaptureState(ctx, p.ActiveFiles, p.DirtyStateSummary)
		if err != nil {
			return wire.FingerprintResult{}, fingerprintFailure(err)
		}
		if st.ActiveFiles == nil {
			st.ActiveFiles = []wire.ActiveFile{} // an array on the wire, never null
		}
		if s.faults.FingerprintCaptureTime {
			sum := sha256.Sum256([]byte(st.StateFingerprint + time.Now().Format(time.RFC3339Nano)))
			st.StateFingerprint = "sha256:" + hex.EncodeToString(sum[:])
		}
		return wire.FingerprintResult{Consistency: workspace.Consistency, State: &st}, nil
	case wire.FingerprintVerify:
		if s.faults.FingerprintAlwaysMatches && p.State != nil {
			return alwaysMatches(*p.State), nil
		}
		v, err := s.root.VerifyState(ctx, *p.State)
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
