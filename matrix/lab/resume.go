package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/matrix/fixture"
)

// resumeCheckpoint returns the checkpoint document a resume continues from
// and the trust the harness asserts for it (LAB §3.9).
//
// A fresh-host resume (recreateHost) of a host with its own store reads
// the checkpoint back through the new host process, never from the
// previous process's answer: untampered, the request carries none, and the
// core loads the latest checkpoint through the host's store/get itself
// (RUNTIME §10.3); tampered, the harness reads it with store/get, alters
// it and passes it. So a host that acknowledged a checkpoint it did not
// make durable fails the resume. Otherwise — the same host process, or the
// harness's memory store standing in — the previous execution's
// checkpoint is used, as the original lab does.
//
// Tampering follows runtime.resume.tamperCheckpoint (nextAction changed,
// hash kept) and conform.resumeTamper (see fixture.ResumeTampers).
func (r *fixtureRun) resumeCheckpoint(ctx context.Context, prev *checkpoint.Checkpoint) (json.RawMessage, string, error) {
	resume := r.set.Resume
	tamper := ""
	if r.fx.Conform != nil {
		tamper = r.fx.Conform.ResumeTamper
	}
	var data []byte
	if st := r.currentHost().RunStore(); resume.RecreateHost && st != nil {
		if !resume.TamperCheckpoint && tamper == "" {
			return nil, "", nil
		}
		doc, err := st.LoadLatestCheckpoint(ctx, r.fx.RunID())
		if err != nil || len(doc) == 0 {
			// Nothing to tamper with: the core's own lookup reports it.
			return nil, "", nil
		}
		data = doc
	} else {
		var err error
		if data, err = checkpoint.Serialize(prev); err != nil {
			return nil, "", fmt.Errorf("serializing the checkpoint to resume from: %w", err)
		}
	}
	if resume.TamperCheckpoint {
		var err error
		if data, err = tamperNextAction(data); err != nil {
			return nil, "", err
		}
	}
	switch tamper {
	case fixture.TamperOneByte:
		out, err := flipGoalByte(data)
		return out, port.CheckpointTrustTrustedHost, err
	case fixture.TamperRehashedForgery:
		out, err := rehashedForgery(data)
		return out, "", err
	}
	return data, port.CheckpointTrustTrustedHost, nil
}

// tamperNextAction appends tamperSuffix to the checkpoint's nextAction
// without recomputing its content hash (runtime.resume.tamperCheckpoint).
func tamperNextAction(data []byte) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("decoding the checkpoint to tamper with: %w", err)
	}
	next, _ := doc["nextAction"].(string)
	doc["nextAction"] = next + tamperSuffix
	return json.Marshal(doc)
}

// flipGoalByte changes the case of the first letter of the checkpoint's
// goal: one byte, the JSON still valid, the content hash untouched.
func flipGoalByte(data []byte) ([]byte, error) {
	key := []byte(`"goal":"`)
	i := bytes.Index(data, key)
	if i < 0 || i+len(key) >= len(data) {
		return nil, fmt.Errorf("the checkpoint to tamper with has no goal text")
	}
	at := i + len(key)
	c := data[at]
	if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return nil, fmt.Errorf("the checkpoint's goal does not start with a letter to change")
	}
	out := bytes.Clone(data)
	out[at] = c ^ 0x20
	return out, nil
}

// rehashedForgery changes the checkpoint's nextAction and recomputes its
// content hash, so the integrity check passes: only its provenance gives
// it away.
func rehashedForgery(data []byte) ([]byte, error) {
	var cp checkpoint.Checkpoint
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, fmt.Errorf("decoding the checkpoint to forge: %w", err)
	}
	cp.NextAction += " [forged and re-hashed by fixture]"
	forged, err := checkpoint.Create(cp.Payload, cp.Reason, cp.CreatedAt)
	if err != nil {
		return nil, fmt.Errorf("re-hashing the forged checkpoint: %w", err)
	}
	return checkpoint.Serialize(forged)
}

// entriesBeforeResume makes the fixture's conform.entriesBeforeResume,
// each replacing whatever was at its path.
// No link is followed: a link at the path is removed itself, a link above
// it refuses the entry (package wsfs).
func (r *fixtureRun) entriesBeforeResume(ctx context.Context) error {
	if r.fx.Conform == nil || len(r.fx.Conform.EntriesBeforeResume) == 0 {
		return nil
	}
	const stage = "conform.entriesBeforeResume"
	for _, e := range r.fx.Conform.EntriesBeforeResume {
		if err := r.root.RemoveAll(e.Path); err != nil {
			return &arrangeError{stage, e.Path, err}
		}
	}
	return makeEntries(ctx, r.root, r.dirs.Outside, stage, r.fx.Conform.EntriesBeforeResume)
}
