package window

import (
	"math"

	"github.com/galaxy-stack/conform/core/port"
)

// Categories splits an input estimate by where the tokens come from
// (CONTRACTS §12.3).
type Categories struct {
	Checkpoint      int `json:"checkpoint"`
	Flexible        int `json:"flexible"`
	History         int `json:"history"`
	Images          int `json:"images"`
	System          int `json:"system"`
	ToolDefinitions int `json:"toolDefinitions"`
	ToolResults     int `json:"toolResults"`
	User            int `json:"user"`
	Workspace       int `json:"workspace"`
}

// Total returns the sum of every category.
func (c Categories) Total() int {
	return c.Checkpoint + c.Flexible + c.History + c.Images + c.System + c.ToolDefinitions + c.ToolResults + c.User + c.Workspace
}

// Usage is a provider's token usage record as loose numbers by key. Record
// reads the first finite, non-negative number under each group of keys
// (CONTRACTS §12.3).
type Usage map[string]float64

// Usage key groups, in lookup order.
var (
	actualInputKeys    = []string{"prompt_eval_count", "input_tokens", "prompt_tokens", "inputTokens"}
	cachedInputKeys    = []string{"prompt_cache_hit_tokens", "cached_tokens", "cachedInputTokens", "cache_read_input_tokens"}
	providerOutputKeys = []string{"eval_count", "output_tokens", "completion_tokens", "outputTokens"}
)

func (u Usage) first(keys []string) *int {
	for _, k := range keys {
		v, ok := u[k]
		if ok && !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0 {
			n := int(math.Floor(v))
			return &n
		}
	}
	return nil
}

// LedgerEntry is one model round's token record (CONTRACTS §12.3). Nil
// pointers are JSON null.
type LedgerEntry struct {
	ActualInput            *int             `json:"actualInput"`
	CachedInput            *int             `json:"cachedInput"`
	CacheHitRate           *float64         `json:"cacheHitRate"`
	CumulativeActualInput  int              `json:"cumulativeActualInput"`
	CumulativeCachedInput  int              `json:"cumulativeCachedInput"`
	CumulativeCacheHitRate *float64         `json:"cumulativeCacheHitRate"`
	Categories             Categories       `json:"categories"`
	CompactionCount        int              `json:"compactionCount"`
	ContextWindow          int              `json:"contextWindow"`
	EstimatedInput         int              `json:"estimatedInput"`
	EstimationErrorRate    *float64         `json:"estimationErrorRate"`
	Model                  string           `json:"model"`
	OutputTokens           int              `json:"outputTokens"`
	Profile                Profile          `json:"profile"`
	ProviderOutputTokens   *int             `json:"providerOutputTokens"`
	RunID                  string           `json:"runId"`
	ThinkingTokens         int              `json:"thinkingTokens"`
	Timestamp              string           `json:"timestamp"`
	ToolDefinitionTokens   int              `json:"toolDefinitionTokens"`
	ToolResultTokens       int              `json:"toolResultTokens"`
	Turn                   int              `json:"turn"`
	Vision                 VisionAccounting `json:"vision"`
}

// LedgerRecord is the input of [Ledger.Record]. Timestamp comes from the
// caller's clock.
type LedgerRecord struct {
	Categories      Categories
	CompactionCount int
	ContextWindow   int
	EstimatedInput  int
	Model           string
	Profile         Profile
	Turn            int
	Usage           Usage
	VisibleOutput   string
	Thinking        string
	Vision          *VisionAccounting
	Timestamp       string
}

// LedgerSnapshot is the ledger's persisted form (CONTRACTS §12.3).
type LedgerSnapshot struct {
	Entries          []LedgerEntry `json:"entries"`
	HasProviderUsage bool          `json:"hasProviderUsage"`
	RunID            string        `json:"runId"`
	SchemaVersion    int           `json:"schemaVersion"`
}

// A Ledger is the per-run token ledger. It only appends.
type Ledger struct {
	runID   string
	entries []LedgerEntry
}

// NewLedger returns an empty ledger for runID.
func NewLedger(runID string) *Ledger { return &Ledger{runID: runID} }

// HasProviderUsage reports whether any entry has a provider input count;
// once true, budgets use the calibrated safety rate.
func (l *Ledger) HasProviderUsage() bool {
	for _, e := range l.entries {
		if e.ActualInput != nil {
			return true
		}
	}
	return false
}

// Record appends the entry for one round and returns it. Without a
// provider output count, thinking and visible output are estimated; with
// one, thinkingTokens = min(providerOutput, estimate(thinking)) and
// outputTokens = max(0, providerOutput − thinkingTokens). Rates are nil
// when their denominator is unknown or 0. Recording an actual input count
// calibrates est with (estimatedInput, actualInput).
func (l *Ledger) Record(in LedgerRecord, est *Estimator) LedgerEntry {
	actual := in.Usage.first(actualInputKeys)
	cached := in.Usage.first(cachedInputKeys)
	providerOut := in.Usage.first(providerOutputKeys)
	thinking := est.Text(in.Thinking)
	visible := est.Text(in.VisibleOutput)
	e := LedgerEntry{ActualInput: actual, CachedInput: cached, Categories: in.Categories, CompactionCount: in.CompactionCount,
		ContextWindow: in.ContextWindow, EstimatedInput: in.EstimatedInput, Model: in.Model, Profile: in.Profile,
		ProviderOutputTokens: providerOut, RunID: l.runID, Timestamp: in.Timestamp, Turn: in.Turn,
		ToolDefinitionTokens: in.Categories.ToolDefinitions, ToolResultTokens: in.Categories.ToolResults}
	if providerOut == nil {
		e.ThinkingTokens, e.OutputTokens = thinking, visible
	} else {
		e.ThinkingTokens = min(*providerOut, thinking)
		e.OutputTokens = max(0, *providerOut-e.ThinkingTokens)
	}
	for _, prev := range l.entries {
		if prev.ActualInput != nil {
			e.CumulativeActualInput += *prev.ActualInput
		}
		if prev.CachedInput != nil {
			e.CumulativeCachedInput += *prev.CachedInput
		}
	}
	if actual != nil {
		e.CumulativeActualInput += *actual
	}
	if cached != nil {
		e.CumulativeCachedInput += *cached
	}
	if actual != nil && *actual != 0 && cached != nil {
		r := float64(*cached) / float64(*actual)
		e.CacheHitRate = &r
	}
	if e.CumulativeActualInput != 0 {
		r := float64(e.CumulativeCachedInput) / float64(e.CumulativeActualInput)
		e.CumulativeCacheHitRate = &r
	}
	if actual != nil && *actual != 0 {
		r := math.Abs(float64(in.EstimatedInput-*actual)) / float64(*actual)
		e.EstimationErrorRate = &r
	}
	if in.Vision != nil {
		e.Vision = *in.Vision
	} else {
		var none VisionEstimator
		e.Vision = none.Estimate(nil)
	}
	l.entries = append(l.entries, e)
	if actual != nil {
		est.CalibrateObserved(in.EstimatedInput, *actual)
	}
	return e
}

// Snapshot returns a copy of the ledger with schemaVersion 1.
func (l *Ledger) Snapshot() LedgerSnapshot {
	return LedgerSnapshot{Entries: append([]LedgerEntry{}, l.entries...), HasProviderUsage: l.HasProviderUsage(),
		RunID: l.runID, SchemaVersion: 1}
}

// UsageFromPort converts the model port's usage record to [Usage].
func UsageFromPort(u *port.TokenUsage) Usage {
	if u == nil {
		return nil
	}
	out := Usage{}
	set := func(k string, p *int) {
		if p != nil {
			out[k] = float64(*p)
		}
	}
	set("inputTokens", u.InputTokens)
	set("cachedInputTokens", u.CachedInputTokens)
	set("outputTokens", u.OutputTokens)
	return out
}
