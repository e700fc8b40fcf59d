package port

import (
	"context"
	"encoding/json"
)

// CheckpointTrustTrustedHost is the only checkpoint trust a run store may
// declare: its checkpoints are isolated from workspace- and model-controlled
// writes (CONTRACTS §13.7).
const CheckpointTrustTrustedHost = "trusted_host"

// CheckpointReceipt acknowledges a saved checkpoint. ArtifactRef is optional.
type CheckpointReceipt struct {
	ArtifactRef string `json:"artifactRef,omitempty"`
}

// RunStore is the trusted checkpoint and final-report store (CONTRACTS
// §13.7). Checkpoints and reports cross it as JSON objects (a checkpoint
// carries its "runId", "contentHash" and "reason"; a report its "runId"),
// so the store does not depend on the checkpoint package. Errors are plain
// Go errors; a failed final-report save is the core's PERSISTENCE_ERROR.
//
// LoadLatestCheckpoint returns nil and no error when the run has no
// checkpoint. Implementations must not retain or expose the caller's bytes:
// what they return is theirs to give away.
type RunStore interface {
	CheckpointTrust() string
	SaveCheckpoint(ctx context.Context, checkpoint json.RawMessage) (CheckpointReceipt, error)
	LoadLatestCheckpoint(ctx context.Context, runID string) (json.RawMessage, error)
	SaveFinalReport(ctx context.Context, report json.RawMessage) error
}
