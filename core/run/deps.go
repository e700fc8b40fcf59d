package run

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
)

// Deps are the ports a controller runs on (RUNTIME §3). Model and Tools are
// required; the model must also report its capabilities
// (port.CapabilityReporter). Every other member is optional: without a Store
// there is no checkpoint persistence and no resume, without a usable
// Verifier (see [Verifier]) no write, validation or diff evidence can be
// applied and no checkpoint with workspace evidence resumes, without a
// Trace the trace is a no-op that is always finalized. Clock, IDs, Sleeper
// and Timers default to wall time, random IDs, a real sleep and real
// timers.
type Deps struct {
	Model    port.Model
	Tools    port.ToolExecutor
	Store    port.RunStore
	Verifier Verifier
	Trace    port.Trace
	// OnEvent observes runtime events (RUNTIME §27). It is called
	// synchronously on the run's goroutine; a panic is swallowed. It may
	// call the controller (Pause, Cancel, ResolveApproval) but must not wait
	// for the run to end.
	OnEvent func(Event)
	Clock   port.Clock
	IDs     port.IDSource
	Sleeper port.Sleeper
	Timers  Timers
}

// A Verifier is the host's workspace evidence verifier
// (AiCoderResumeWorkspaceVerifier, CONTRACTS §13.8) with consistency
// "serialized_workspace": it captures a deterministic fingerprint of the
// task-relevant workspace state and verifies a recorded one on resume.
//
// A Verifier that also implements [ConsistencyReporter] states its
// consistency; one that does not is taken to be serialized_workspace, the
// contract of this interface. A Verifier reporting any other consistency
// is treated as missing ([Deps] without a Verifier).
type Verifier interface {
	Capture(ctx context.Context, in WorkspaceInput) (port.WorkspaceState, error)
	Verify(ctx context.Context, state port.WorkspaceState) (port.Verification, error)
}

// ConsistencySerializedWorkspace is the only verifier consistency the
// runtime accepts (CONTRACTS §13.8): the host serializes its mutations with
// capture and verify boundaries.
const ConsistencySerializedWorkspace = "serialized_workspace"

// A ConsistencyReporter is a [Verifier] that states its consistency level,
// the verifier's "consistency" member of CONTRACTS §13.8. Only
// [ConsistencySerializedWorkspace] makes the verifier usable; any other
// value counts as no verifier.
type ConsistencyReporter interface {
	Consistency() string
}

// usableVerifier returns v, or nil when v reports a consistency other than
// serialized_workspace (CONTRACTS §13.8).
func usableVerifier(v Verifier) Verifier {
	if r, ok := v.(ConsistencyReporter); ok && r.Consistency() != ConsistencySerializedWorkspace {
		return nil
	}
	return v
}

// WorkspaceInput is what the runtime asks a verifier to capture: the
// union of inspected and written paths, sorted, each with its latest
// afterKind and afterHash, and the dirty-state summary (CONTRACTS §13.8).
type WorkspaceInput struct {
	ActiveFiles       []port.ActiveFile `json:"activeFiles"`
	DirtyStateSummary *string           `json:"dirtyStateSummary"`
}

// boundFiles returns the verifier's view of checkpoint records: path, kind
// and content hash; line ranges and reasons stay in the checkpoint. It is
// never nil.
func boundFiles(files []checkpoint.ActiveFileRecord) []port.ActiveFile {
	out := make([]port.ActiveFile, len(files))
	for i, f := range files {
		out[i] = f.ActiveFile
	}
	return out
}

// checkpointFiles returns the checkpoint records of a verifier's active
// files; it is never nil, as a checkpoint's activeFiles is an array.
func checkpointFiles(files []port.ActiveFile) []checkpoint.ActiveFileRecord {
	out := make([]checkpoint.ActiveFileRecord, len(files))
	for i, f := range files {
		out[i] = checkpoint.ActiveFileRecord{ActiveFile: f}
	}
	return out
}

// A ToolSetRestorer is a tool executor that can restore a checkpointed tool
// set on resume (the optional restoreToolSet of CONTRACTS §13.9).
type ToolSetRestorer interface {
	RestoreToolSet(ctx context.Context, names []string, snapshotHash string) error
}

// Timers arms wall-clock timers: the run deadline, the persistence grace and
// the dispatch guard. AfterFunc calls f once after d unless stop is called
// first. Tests replace it to fire timers on demand.
type Timers interface {
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realTimers struct{}

func (realTimers) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

type wallClock struct{}

func (wallClock) Now() int64 { return time.Now().UnixMilli() }

type randomIDs struct{}

func (randomIDs) NewID(prefix string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}

type realSleeper struct{}

func (realSleeper) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func (d Deps) withDefaults() Deps {
	if d.Verifier != nil {
		d.Verifier = usableVerifier(d.Verifier)
	}
	if d.Clock == nil {
		d.Clock = wallClock{}
	}
	if d.IDs == nil {
		d.IDs = randomIDs{}
	}
	if d.Sleeper == nil {
		d.Sleeper = realSleeper{}
	}
	if d.Timers == nil {
		d.Timers = realTimers{}
	}
	return d
}
