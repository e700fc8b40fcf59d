package window

import (
	"cmp"
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// assembly is the selected context of one round.
type assembly struct {
	categories Categories
	tokens     int
	messages   []port.Message
	selected   []string
	evicted    []string
	summarized int
}

// assemble selects items under budget (CONTRACTS §12.5 "Assembly"):
// mandatory P0 items always, then P1 before P2 by utility per token
// (newer first, then id) while they fit min(soft, hard − 1), then one
// summary of the unselected P2 items if it fits; the selection is ordered
// by physical order, turn and id.
func (m *Manager) assemble(tools []port.ToolDefinition, turn int, vision VisionAccounting, b Budget, next []port.Message) (assembly, error) {
	toolTokens := m.est.ToolDefinitions(tools)
	if toolTokens > b.Profile.ToolDefinitionBudget {
		return assembly{}, budgetError(CodeToolDefinitionsTooLarge, "Tool definitions require %d tokens, above the %d token budget.",
			toolTokens, b.Profile.ToolDefinitionBudget)
	}
	unique := m.uniqueItems()
	var mandatory []*Item
	for _, it := range unique {
		if it.effectivePriority(turn) == P0 {
			mandatory = append(mandatory, it)
		}
	}
	nextTokens := m.est.Messages(next)
	mandatoryTokens := nextTokens
	for _, it := range mandatory {
		mandatoryTokens += it.TokenCount
	}
	fixed := toolTokens + vision.EstimatedVisionTokens
	if mandatoryTokens+fixed >= b.HardInputTokens {
		return assembly{}, budgetError(CodeMandatoryContextTooLarge, "Mandatory context (%d) and fixed context (%d) exceed hard input %d.",
			mandatoryTokens, fixed, b.HardInputTokens)
	}
	target := min(b.SoftInputTokens, b.HardInputTokens-1)
	remaining := max(0, target-mandatoryTokens-fixed)

	type candidate struct { // small: the stable sort moves them
		item    *Item
		density float64
		index   int32 // in unique
		p1      bool  // P1, else P2
	}
	candidates := make([]candidate, 0, len(unique))
	for i, it := range unique {
		if p := it.effectivePriority(turn); p == P1 || p == P2 {
			candidates = append(candidates, candidate{it, it.utility(turn) / float64(max(1, it.TokenCount)), int32(i), p == P1})
		}
	}
	slices.SortStableFunc(candidates, func(a, b candidate) int {
		if a.p1 != b.p1 {
			if a.p1 {
				return -1
			}
			return 1
		}
		if d := b.density - a.density; d != 0 {
			if d < 0 {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.item.LastUsedTurn, a.item.LastUsedTurn); c != 0 {
			return c
		}
		return canon.CompareText(a.item.ID, b.item.ID)
	})
	selected := make([]*Item, 0, len(unique)+1)
	selected = append(selected, mandatory...)
	chosen := make([]bool, len(unique))
	var out assembly
	for _, c := range candidates {
		if c.item.TokenCount <= remaining {
			selected = append(selected, c.item)
			chosen[c.index] = true
			remaining -= c.item.TokenCount
		} else {
			out.evicted = append(out.evicted, c.item.ID)
		}
	}
	var unselectedP2 []*Item
	for i, it := range unique {
		if it.effectivePriority(turn) == P2 && !chosen[i] {
			unselectedP2 = append(unselectedP2, it)
		}
	}
	if summary := m.summarize(unselectedP2, turn, "p2-summary-", P2, 0.6); summary != nil && summary.TokenCount <= remaining {
		selected = append(selected, summary)
		out.summarized = len(unselectedP2)
	}
	slices.SortStableFunc(selected, func(a, b *Item) int {
		if c := cmp.Compare(a.order(), b.order()); c != 0 {
			return c
		}
		if c := cmp.Compare(a.LastUsedTurn, b.LastUsedTurn); c != 0 {
			return c
		}
		return canon.CompareText(a.ID, b.ID)
	})
	out.categories = Categories{Images: vision.EstimatedVisionTokens, ToolDefinitions: toolTokens, Flexible: nextTokens}
	n := len(next)
	for _, it := range selected {
		*it.category(&out.categories) += it.TokenCount
		n += len(it.Messages)
	}
	out.tokens = out.categories.Total()
	if out.tokens >= b.HardInputTokens {
		return assembly{}, budgetError(CodeHardLimit, "Assembled context %d exceeds hard input %d.", out.tokens, b.HardInputTokens)
	}
	out.messages = make([]port.Message, 0, n)
	if len(selected) > 0 {
		out.selected = make([]string, 0, len(selected)) // nil when none, as append leaves it
	}
	for _, it := range selected {
		out.messages = append(out.messages, it.Messages...)
		out.selected = append(out.selected, it.ID)
	}
	out.messages = append(out.messages, next...)
	return out, nil
}

// uniqueItems returns the non-stale items that are the first item with
// their content hash (a stale earlier twin hides a later one, as in the
// original).
func (m *Manager) uniqueItems() []*Item {
	first := m.firstByHash // reused from round to round
	if first == nil {
		first = make(map[string]int, len(m.items))
		m.firstByHash = first
	}
	clear(first)
	for i := range m.items {
		if _, ok := first[m.items[i].ContentHash]; !ok {
			first[m.items[i].ContentHash] = i
		}
	}
	out := make([]*Item, 0, len(m.items))
	for i := range m.items {
		if !m.items[i].Stale && first[m.items[i].ContentHash] == i {
			out = append(out, &m.items[i])
		}
	}
	return out
}
