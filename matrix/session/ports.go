package session

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
)

// portError turns a host's port failure into the *port.Error the core
// expects; other errors (protocol breaks, timeouts) pass unchanged.
func portError(err error) error {
	if err == nil {
		return nil
	}
	if pe, ok := wire.AsPortError(err); ok {
		return pe
	}
	return err
}

// RestoreToolSet restores a checkpointed tool set on the host
// (run.ToolSetRestorer).
func (e *executor) RestoreToolSet(ctx context.Context, names []string, snapshotHash string) error {
	if names == nil {
		names = []string{}
	}
	_, err := e.client.RestoreToolSet(ctx, wire.RestoreParams{Names: names, SnapshotHash: snapshotHash})
	err = e.record(err)
	return portError(err)
}

var _ run.ToolSetRestorer = (*executor)(nil)

// hostStore is the core's run store over store/* (CONTRACTS §13.7).
type hostStore struct {
	client *hostproc.Client
	exec   *executor
}

func (s *hostStore) CheckpointTrust() string { return port.CheckpointTrustTrustedHost }

func runIDOf(doc json.RawMessage) (string, error) {
	var v struct {
		RunID string `json:"runId"`
	}
	if err := json.Unmarshal(doc, &v); err != nil || v.RunID == "" {
		return "", errors.New("the document has no runId")
	}
	return v.RunID, nil
}

func (s *hostStore) put(ctx context.Context, kind string, doc json.RawMessage) (wire.StorePutResult, error) {
	id, err := runIDOf(doc)
	if err != nil {
		return wire.StorePutResult{}, err
	}
	r, err := s.client.StorePut(ctx, wire.StorePutParams{RunID: id, Kind: kind, Document: doc})
	err = s.exec.record(err)
	return r, portError(err)
}

func (s *hostStore) SaveCheckpoint(ctx context.Context, cp json.RawMessage) (port.CheckpointReceipt, error) {
	r, err := s.put(ctx, wire.KindCheckpoint, cp)
	if err != nil {
		return port.CheckpointReceipt{}, err
	}
	return port.CheckpointReceipt{ArtifactRef: r.ArtifactRef}, nil
}

func (s *hostStore) LoadLatestCheckpoint(ctx context.Context, runID string) (json.RawMessage, error) {
	doc, err := s.client.StoreGet(ctx, wire.StoreGetParams{RunID: runID, Kind: wire.KindCheckpoint})
	err = s.exec.record(err)
	if err != nil {
		return nil, portError(err)
	}
	if len(doc) == 0 || string(doc) == "null" {
		return nil, nil
	}
	return doc, nil
}

func (s *hostStore) SaveFinalReport(ctx context.Context, report json.RawMessage) error {
	_, err := s.put(ctx, wire.KindFinalReport, report)
	return err
}

// hostTrace is the core's trace over trace/* (CONTRACTS §13.9).
type hostTrace struct {
	client *hostproc.Client
	exec   *executor
}

func (t *hostTrace) Emit(ctx context.Context, e port.TraceEvent) error {
	err := t.client.TraceAppend(ctx, e) // wire.TraceEvent is port.TraceEvent
	err = t.exec.record(err)
	return portError(err)
}

func (t *hostTrace) Flush(ctx context.Context) error {
	_, err := t.client.TraceFlush(ctx)
	err = t.exec.record(err)
	return portError(err)
}

// hostVerifier is the core's workspace evidence verifier over
// workspace/fingerprint (CONTRACTS §13.8). The state it returns keeps the
// active files the core passed in and the host's fingerprint.
type hostVerifier struct {
	client *hostproc.Client
	exec   *executor
}

func (v *hostVerifier) Capture(ctx context.Context, in run.WorkspaceInput) (port.WorkspaceState, error) {
	st, err := v.client.CaptureFingerprint(ctx, in.ActiveFiles, in.DirtyStateSummary)
	err = v.exec.record(err)
	if err != nil {
		return port.WorkspaceState{}, portError(err)
	}
	active := in.ActiveFiles
	if active == nil {
		active = []port.ActiveFile{}
	}
	return port.WorkspaceState{ActiveFiles: active, DirtyStateSummary: in.DirtyStateSummary, StateFingerprint: st.StateFingerprint}, nil
}

func (v *hostVerifier) Verify(ctx context.Context, state port.WorkspaceState) (port.Verification, error) {
	fp, ok, err := v.client.VerifyFingerprint(ctx, state)
	err = v.exec.record(err)
	if err != nil {
		return port.Verification{}, portError(err)
	}
	return port.Verification{CurrentFingerprint: fp, Matches: ok}, nil
}
