package matrix

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/reports"
)

// SkippedByRequestReason is the reason of an item --skip kept from running.
const SkippedByRequestReason = "skipped by request (--skip)"

// selects reports whether cfg's --only, --area and --skip ask for item it.
func selects(cfg Config, it Item) bool {
	if len(cfg.Only) > 0 && !slices.Contains(cfg.Only, it.ID) {
		return false
	}
	if slices.Contains(cfg.Skip, it.ID) {
		return false
	}
	return cfg.Area == "" || cfg.Area == it.Area
}

// checkNotEmpty refuses a selection that runs no item: a run that
// certifies nothing must not pass.
func checkNotEmpty(cfg Config) error {
	for _, it := range registry {
		if selects(cfg, it) {
			return nil
		}
	}
	return &InvocationError{Err: fmt.Errorf("%s selects no runnable item, so nothing would run; widen the selection (see `conform matrix`)", selectionText(cfg))}
}

// selectionText says what cfg selects, as its flags would.
func selectionText(cfg Config) string {
	var parts []string
	refs := func(ids []int) string {
		s := make([]string, len(ids))
		for i, id := range ids {
			s[i] = RefOf(id)
		}
		return strings.Join(s, ",")
	}
	if len(cfg.Only) > 0 {
		parts = append(parts, "--only "+refs(cfg.Only))
	}
	if cfg.Area != "" {
		parts = append(parts, "--area "+cfg.Area)
	}
	if len(cfg.Skip) > 0 {
		parts = append(parts, "--skip "+refs(cfg.Skip))
	}
	if len(parts) == 0 {
		return "the whole matrix"
	}
	return strings.Join(parts, " ")
}

// withSkipped returns items with, in ID order, an item skipped by request
// for each runnable item --skip named that --only and --area would
// otherwise run.
func withSkipped(cfg Config, items []reports.Item) []reports.Item {
	added := false
	for _, id := range cfg.Skip {
		it, ok := registry[id]
		if !ok || !selects(Config{Only: cfg.Only, Area: cfg.Area}, it) {
			continue
		}
		items = append(items, reports.Item{ID: id, Ref: RefOf(id), Name: it.Name, Title: it.Title, Area: it.Area, Scope: it.Scope,
			Status: reports.Skipped, Reason: SkippedByRequestReason})
		added = true
	}
	if added {
		sort.SliceStable(items, func(i, j int) bool { return items[i].ID < items[j].ID })
	}
	return items
}

// Selected checks cfg's selection as Run does and returns the IDs of the
// runnable items it runs (--only, --area, less --skip), in ID order: what
// `certify --shard` and `--parallel` split.
func Selected(cfg Config) ([]int, error) {
	if err := checkSelection(cfg); err != nil {
		return nil, err
	}
	var ids []int
	for id, it := range registry {
		if selects(cfg, it) {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	return ids, nil
}

// Planned returns the IDs of the planned items a run of cfg lists in its
// document: those of its area, when --only names no item.
func Planned(cfg Config) []int {
	var ids []int
	if len(cfg.Only) > 0 {
		return nil
	}
	for id, it := range catalog {
		if _, runnable := registry[id]; !runnable && (cfg.Area == "" || cfg.Area == it.Area) {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	return ids
}
