package window

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
)

// Compaction limits (CONTRACTS §12.5).
const (
	compactRecentItems      = 8
	compactRetainedMax      = 5
	compactRetainedTokens   = 12_000
	compactFallbackTokens   = 8_000
	toolPressureMinTokens   = 16_000
	toolPressureHardShare   = 0.1
	toolPressureInputShare  = 0.35
	compactionSummaryWeight = 0.8
)

// compact replaces the history with a durable checkpoint (CONTRACTS §12.5
// "Compaction"): it asks for a checkpoint, validates it, keeps the policy
// and task items, adds the checkpoint as a P0 item, retains up to 5 of the
// 8 most recent non-P0 items that are file, diff or research evidence
// (≤ 12000 tokens together, thinking stripped; or else the first recent
// item of ≤ 8000 tokens), summarises the rest of the 8, and counts the
// compaction.
//
// The mandatory state item goes with the rest, as in the original
// (compact() in src/context/context-manager.ts keeps only the items of kind
// "policy" or "task" before adding the checkpoint): the request prepared
// right after a compaction carries no RUNTIME §28 document until the
// controller replaces it at the start of the next turn.
func (m *Manager) compact(reason checkpoint.Reason, turn int) error {
	if m.cfg.Checkpoint == nil {
		return budgetError(CodeCheckpointUnavailable, "Context compaction requires a durable checkpoint provider.")
	}
	res, err := m.cfg.Checkpoint(CheckpointRequest{Reason: reason, Turn: turn})
	if err != nil {
		return err
	}
	if res.Checkpoint == nil {
		return &InvalidCheckpointError{Issues: []checkpoint.Issue{{Path: "$", Message: "Checkpoint is missing."}}}
	}
	if err := validCheckpoint(res.Checkpoint, false); err != nil {
		return err
	}
	text, err := checkpoint.FormatMessage(res.Checkpoint)
	if err != nil {
		return fmt.Errorf("window: format checkpoint: %w", err)
	}

	var recent []*Item
	for i := range m.items {
		if m.items[i].Priority != P0 {
			it := m.items[i]
			recent = append(recent, &it)
		}
	}
	slices.SortStableFunc(recent, func(a, b *Item) int {
		if c := cmp.Compare(b.LastUsedTurn, a.LastUsedTurn); c != 0 {
			return c
		}
		return canon.CompareText(a.ID, b.ID)
	})
	if len(recent) > compactRecentItems {
		recent = recent[:compactRecentItems]
	}
	for _, it := range recent {
		it.Messages = stripThinking(it.Messages)
		it.Priority = P1
		it.TokenCount = m.est.Messages(it.Messages)
	}
	var retained []*Item
	tokens := 0
	for _, it := range recent {
		evidence := it.Kind == ItemFile || it.Kind == ItemDiff || it.Kind == ItemResearch
		if !evidence || len(retained) >= compactRetainedMax || tokens+it.TokenCount > compactRetainedTokens {
			continue
		}
		retained = append(retained, it)
		tokens += it.TokenCount
	}
	if len(retained) == 0 {
		for _, it := range recent {
			if it.TokenCount <= compactFallbackTokens {
				retained = append(retained, it)
				break
			}
		}
	}
	var rest []*Item
	for _, it := range recent {
		if !slices.Contains(retained, it) {
			rest = append(rest, it)
		}
	}
	summary := m.summarize(rest, turn, "compaction-summary-", P1, compactionSummaryWeight)

	dropTask := faults.On(faults.CompactionDropsTask)
	m.removeIf(func(it *Item) bool { return it.Kind != ItemPolicy && (it.Kind != ItemTask || dropTask) })
	m.AddItem(ItemSpec{ArtifactRef: res.ArtifactRef, ID: "checkpoint-" + res.Checkpoint.ContentHash, Kind: ItemCheckpoint,
		LastUsedTurn: turn, Messages: []port.Message{{Role: "user", Content: text}}, Priority: P0, Relevance: 1,
		Summary: "Checkpoint " + res.Checkpoint.ContentHash, Trust: Trusted})
	for _, it := range retained {
		if !m.hasHash(it.ContentHash) {
			m.items = append(m.items, *it)
		}
	}
	if summary != nil {
		m.items = append(m.items, *summary)
	}
	m.compacted++
	m.toolRounds = 0
	m.latest = res.Checkpoint
	return nil
}

func (m *Manager) hasHash(hash string) bool {
	for i := range m.items {
		if m.items[i].ContentHash == hash {
			return true
		}
	}
	return false
}

// stripThinking returns msgs with assistant thinking removed.
func stripThinking(msgs []port.Message) []port.Message {
	out := make([]port.Message, len(msgs))
	for i, msg := range msgs {
		if msg.Role == "assistant" {
			msg.Thinking = ""
		}
		out[i] = msg
	}
	return out
}
