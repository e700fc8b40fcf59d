package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
)

// RunStore is the memory run store (LAB §22.2): it keeps the latest
// checkpoint and final report per run ID and the history of every saved
// checkpoint and report, in save order. It stores the JSON bytes it is
// given, unchanged, and performs no checkpoint validation and no context
// checks. It is safe for concurrent use.
type RunStore struct {
	mu                sync.Mutex
	latest            map[string]json.RawMessage
	reports           map[string]json.RawMessage
	checkpointHistory []json.RawMessage
	reportHistory     []json.RawMessage
}

var _ port.RunStore = (*RunStore)(nil)

// NewRunStore returns an empty memory run store.
func NewRunStore() *RunStore {
	return &RunStore{latest: map[string]json.RawMessage{}, reports: map[string]json.RawMessage{}}
}

// CheckpointTrust returns "trusted_host".
func (s *RunStore) CheckpointTrust() string { return port.CheckpointTrustTrustedHost }

// SaveCheckpoint stores a copy of checkpoint as the latest for its run and
// appends another copy to the history. The checkpoint must be a JSON object
// with a non-empty string "runId". The receipt's artifact reference is
// "memory://checkpoints/<runId>/<contentHash>".
func (s *RunStore) SaveCheckpoint(_ context.Context, checkpoint json.RawMessage) (port.CheckpointReceipt, error) {
	head, err := readHead("checkpoint", checkpoint)
	if err != nil {
		return port.CheckpointReceipt{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latest[head.RunID] = clone(checkpoint)
	s.checkpointHistory = append(s.checkpointHistory, clone(checkpoint))
	return port.CheckpointReceipt{ArtifactRef: "memory://checkpoints/" + head.RunID + "/" + head.ContentHash}, nil
}

// LoadLatestCheckpoint returns a copy of the latest checkpoint of runID, or
// nil when there is none.
func (s *RunStore) LoadLatestCheckpoint(_ context.Context, runID string) (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return clone(s.latest[runID]), nil
}

// SaveFinalReport stores a copy of report as the latest for its run and
// appends another copy to the history. The report must be a JSON object
// with a non-empty string "runId".
func (s *RunStore) SaveFinalReport(_ context.Context, report json.RawMessage) error {
	head, err := readHead("final report", report)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reports[head.RunID] = clone(report)
	s.reportHistory = append(s.reportHistory, clone(report))
	return nil
}

// FinalReport returns a copy of the latest final report of runID, or nil.
func (s *RunStore) FinalReport(runID string) json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return clone(s.reports[runID])
}

// CheckpointHistory returns copies of every saved checkpoint, of every run,
// in save order: the source of a run's checkpoint reasons and audits.
func (s *RunStore) CheckpointHistory() []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cloneAll(s.checkpointHistory)
}

// FinalReportHistory returns copies of every saved final report, in save
// order.
func (s *RunStore) FinalReportHistory() []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cloneAll(s.reportHistory)
}

// CheckpointReasons returns the "reason" of every saved checkpoint, in save
// order (LAB §3.10 checkpointReasons); a checkpoint without one gives "".
func (s *RunStore) CheckpointReasons() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, len(s.checkpointHistory))
	for i, c := range s.checkpointHistory {
		head, _ := readHead("checkpoint", c)
		out[i] = head.Reason
	}
	return out
}

// head is the part of a checkpoint or report the store reads.
type head struct {
	RunID       string `json:"runId"`
	ContentHash string `json:"contentHash"`
	Reason      string `json:"reason"`
}

func readHead(what string, data json.RawMessage) (head, error) {
	var h head
	if err := json.Unmarshal(data, &h); err != nil {
		return head{}, fmt.Errorf("store: %s: %w", what, err)
	}
	if h.RunID == "" {
		return head{}, errors.New("store: " + what + " has no \"runId\"")
	}
	return h, nil
}

func clone(b json.RawMessage) json.RawMessage {
	if b == nil {
		return nil
	}
	return append(json.RawMessage(nil), b...)
}

func cloneAll(bs []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(bs))
	for i, b := range bs {
		out[i] = clone(b)
	}
	return out
}
