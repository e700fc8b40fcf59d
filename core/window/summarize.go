package window

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
)

// Summary limits (CONTRACTS §12.5).
const (
	summaryMaxItems      = 20
	summaryTextMax       = 800
	summaryToolDigests   = 4
	summaryToolArgsMax   = 200
	summaryResultTailMax = 300
)

// itemDigest is one entry of a compacted-context message. Keys are written
// in canonical (sorted) order.
type itemDigest struct {
	ArtifactRef       *string      `json:"artifactRef"`
	Kind              ItemKind     `json:"kind"`
	ResultTail        *string      `json:"resultTail,omitempty"`
	Summary           string       `json:"summary"`
	Tools             []toolDigest `json:"tools,omitempty"`
	Trust             Trust        `json:"trust"`
	UnresolvedFailure bool         `json:"unresolvedFailure"`
}

// toolDigest names one call of a summarised item with redacted arguments,
// so that the model still knows what was already done.
type toolDigest struct {
	Args string `json:"args"`
	Name string `json:"name"`
}

// summarize folds items into one "[GALAXY COMPACTED CONTEXT ...]" user
// message: the 20 most recent (then by id), each with kind, summary (≤800),
// up to 4 tool digests with redacted canonical arguments (≤200), the
// whitespace-collapsed tail of its last tool result (≤300), trust and the
// failure flag. It returns nil for no items.
func (m *Manager) summarize(items []*Item, turn int, idPrefix string, priority Priority, relevance float64) *Item {
	if len(items) == 0 {
		return nil
	}
	sorted := append([]*Item{}, items...)
	slices.SortStableFunc(sorted, func(a, b *Item) int {
		if c := cmp.Compare(b.LastUsedTurn, a.LastUsedTurn); c != 0 {
			return c
		}
		return canon.CompareText(a.ID, b.ID)
	})
	if len(sorted) > summaryMaxItems {
		sorted = sorted[:summaryMaxItems]
	}
	digests := make([]itemDigest, 0, len(sorted))
	for _, it := range sorted {
		d := itemDigest{Kind: it.Kind, Summary: canon.CutUTF16(it.Summary, summaryTextMax), Trust: it.Trust, UnresolvedFailure: it.UnresolvedFailure}
		if it.ArtifactRef != "" {
			ref := it.ArtifactRef
			d.ArtifactRef = &ref
		}
		for _, msg := range it.Messages {
			if msg.Role == "assistant" && len(msg.ToolCalls) > 0 {
				for i, call := range msg.ToolCalls {
					if i == summaryToolDigests {
						break
					}
					d.Tools = append(d.Tools, toolDigest{Name: call.Name, Args: canon.CutUTF16(checkpoint.Redact(canonicalArgs(call.Arguments)), summaryToolArgsMax)})
				}
				break
			}
		}
		for i := len(it.Messages) - 1; i >= 0; i-- {
			if it.Messages[i].Role == "tool" {
				tail := suffix16(collapseSpace(it.Messages[i].Content), summaryResultTailMax)
				d.ResultTail = &tail
				break
			}
		}
		digests = append(digests, d)
	}
	body, err := canon.Marshal(digests)
	if err != nil {
		body = []byte(jsonText(digests))
	}
	msg := port.Message{Role: "user", Content: CompactedContextHeader + "\n" + string(body)}
	msgs := []port.Message{msg}
	return &Item{ContentHash: contentHash(msg), ID: fmt.Sprintf("%s%d", idPrefix, turn), Kind: ItemMessage, LastUsedTurn: turn,
		Messages: msgs, Priority: priority, Relevance: relevance, Summary: "Structured summary of evicted P2 context",
		TokenCount: m.est.Messages(msgs), Trust: Trusted}
}

// canonicalArgs returns the canonical JSON of tool-call arguments ({} for
// none).
func canonicalArgs(args map[string]any) string {
	if args == nil {
		return "{}"
	}
	b, err := canon.Marshal(args)
	if err != nil {
		return jsonText(args)
	}
	return string(b)
}
