package window

import (
	"math"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
)

// PrepareInput is one round's context request.
type PrepareInput struct {
	// Tools are the round's tool definitions; empty for a tool-free turn.
	Tools []port.ToolDefinition
	// Turn is the model turn being prepared (modelTurns after increment).
	Turn int
	// ForceReason, when set, forces a compaction with that checkpoint
	// reason (the runtime uses provider_overflow).
	ForceReason checkpoint.Reason
	// Next are messages appended after the selected items (none in the
	// runtime's own rounds).
	Next []port.Message
}

// Step names what a preparation did, in order.
type Step string

// The preparation steps.
const (
	StepCompact   Step = "compact"   // a checkpoint was saved and the history compacted
	StepAssemble  Step = "assemble"  // items were selected under the budget
	StepEvict     Step = "evict"     // some P1/P2 items did not fit and were left out
	StepSummarize Step = "summarize" // unselected P2 items were folded into one summary
	StepCount     Step = "count"     // the provider counted the prepared request
	StepOverflow  Step = "overflow"  // the provider count reached hard input
)

// Diagnostic is the context diagnostic of one round (CONTRACTS §12.5).
type Diagnostic struct {
	Categories           Categories `json:"categories"`
	Compacted            bool       `json:"compacted"`
	CompactionCount      int        `json:"compactionCount"`
	CurrentInputTokens   int        `json:"currentInputTokens"`
	HardInputTokens      int        `json:"hardInputTokens"`
	Pressure             Pressure   `json:"pressure"`
	Profile              Profile    `json:"profile"`
	ProjectedInputTokens int        `json:"projectedInputTokens"`
	RunID                string     `json:"runId"`
	SelectedItemCount    int        `json:"selectedItemCount"`
	SoftInputTokens      int        `json:"softInputTokens"`
	TaskID               string     `json:"taskId"`
	Turn                 int        `json:"turn"`
}

// Prepared is a round's context: the request messages and how they were
// chosen.
type Prepared struct {
	Budget     Budget
	Categories Categories
	// Compacted reports a compaction in this preparation, for
	// CheckpointReason.
	Compacted        bool
	CheckpointReason checkpoint.Reason
	Diagnostic       Diagnostic
	// EstimatedInputTokens is the estimate of Messages plus tools and
	// images.
	EstimatedInputTokens int
	Messages             []port.Message
	// Pressure is compact after a compaction, else the class of the
	// estimate; RawPressure is the class before assembly.
	Pressure    Pressure
	RawPressure Pressure
	Vision      VisionAccounting
	// Selected lists the chosen item IDs in request order; Evicted the
	// P1/P2 items left out; Summarized how many P2 items the included
	// summary covers.
	Selected   []string
	Evicted    []string
	Summarized int
	// ProviderTokens is the provider's count of the final request when
	// prepared by [Manager.Fit] (0 otherwise).
	ProviderTokens int
	Steps          []Step
}

// Prepare builds the round's context (CONTRACTS §12.5 prepareRound). It
// prices the raw context, compacts when forced, when raw pressure is
// compact or blocked (context_threshold), when tool, research, file and
// diff items exceed max(16000, 10% of hard) tokens and over 35% of the raw
// input (tool_result_pressure), or when the tool rounds since the last
// compaction reach the profile's maxToolRoundsBeforeCheckpoint
// (tool_round_limit); then it assembles the messages under the budget.
//
// Errors: a *[BudgetError] (no model request may follow), the checkpoint
// function's error unchanged, or an *[InvalidCheckpointError].
func (m *Manager) Prepare(in PrepareInput) (Prepared, error) {
	var vision VisionAccounting
	if in.Turn == 1 {
		vision = m.vision.Estimate(m.cfg.Images)
	} else {
		vision = m.vision.Estimate(nil)
	}
	b, err := NewBudget(m.cfg.Profile, m.cfg.ContextWindow, m.ledger.HasProviderUsage())
	if err != nil {
		return Prepared{}, err
	}
	rawTool, rawInput := 0, 0
	for i := range m.items {
		it := &m.items[i]
		rawInput += it.TokenCount
		switch it.Kind {
		case ItemTool, ItemResearch, ItemFile, ItemDiff:
			rawTool += it.TokenCount
		}
	}
	rawInput += m.est.ToolDefinitions(in.Tools) + m.est.Messages(in.Next) + vision.EstimatedVisionTokens
	toolPressure := rawTool > max(toolPressureMinTokens, int(math.Floor(float64(b.HardInputTokens)*toolPressureHardShare))) &&
		float64(rawTool)/float64(max(1, rawInput)) > toolPressureInputShare
	p := Prepared{RawPressure: b.Classify(rawInput, rawInput)}
	reason := in.ForceReason
	switch {
	case reason != "":
	case p.RawPressure == Blocked || p.RawPressure == Compact:
		reason = checkpoint.ReasonContextThreshold
	case toolPressure && !faults.On(faults.ToolPressureSkipCheckpoint):
		reason = checkpoint.ReasonToolResultPressure
	case m.toolRounds >= b.Profile.MaxToolRoundsBeforeCheckpoint:
		reason = checkpoint.ReasonToolRoundLimit
	}
	if reason != "" {
		if err := m.compact(reason, in.Turn); err != nil {
			return Prepared{}, err
		}
		p.Compacted, p.CheckpointReason = true, reason
		p.Steps = append(p.Steps, StepCompact)
		if b, err = NewBudget(m.cfg.Profile, m.cfg.ContextWindow, m.ledger.HasProviderUsage()); err != nil {
			return Prepared{}, err
		}
	}
	a, err := m.assemble(in.Tools, in.Turn, vision, b, in.Next)
	if err != nil {
		return Prepared{}, err
	}
	p.Steps = append(p.Steps, StepAssemble)
	if len(a.evicted) > 0 {
		p.Steps = append(p.Steps, StepEvict)
	}
	if a.summarized > 0 {
		p.Steps = append(p.Steps, StepSummarize)
	}
	p.Pressure = Compact
	if !p.Compacted {
		p.Pressure = b.Classify(a.tokens, a.tokens)
	}
	p.Budget, p.Categories, p.EstimatedInputTokens, p.Messages, p.Vision = b, a.categories, a.tokens, a.messages, vision
	p.Selected, p.Evicted, p.Summarized = a.selected, a.evicted, a.summarized
	p.Diagnostic = Diagnostic{Categories: a.categories, Compacted: p.Compacted, CompactionCount: m.compacted,
		CurrentInputTokens: a.tokens, HardInputTokens: b.HardInputTokens, Pressure: p.Pressure, Profile: m.cfg.Profile,
		ProjectedInputTokens: a.tokens, RunID: m.cfg.RunID, SelectedItemCount: len(a.selected), SoftInputTokens: b.SoftInputTokens,
		TaskID: m.cfg.TaskID, Turn: in.Turn}
	return p, nil
}

// A CountFunc asks the provider to count a prepared request. The caller
// adds attachments; an error is returned by [Manager.Fit] unchanged (the
// runtime reports it as PROVIDER_ERROR "Token counting failed: <msg>").
type CountFunc func(messages []port.Message, tools []port.ToolDefinition) (int, error)

// Fit is the context step of a turn (RUNTIME §11 steps 6–7): [Manager.Prepare],
// then the provider count. A count below hard input is accepted. The first
// overflow prepares again with a forced provider_overflow compaction and
// recounts; a second overflow is a *[BudgetError] with
// [CodeProviderOverflow] ("Provider token count <n> remains above hard
// input <h> after compaction."). The returned Prepared records both
// preparations' steps.
func (m *Manager) Fit(in PrepareInput, count CountFunc) (Prepared, error) {
	p, err := m.Prepare(in)
	if err != nil {
		return Prepared{}, err
	}
	var prior []Step
	for attempt := 0; ; attempt++ {
		n, err := count(p.Messages, in.Tools)
		if err != nil {
			return Prepared{}, err
		}
		p.ProviderTokens = n
		p.Steps = append(append(append([]Step{}, prior...), p.Steps...), StepCount)
		if n < p.Budget.HardInputTokens {
			return p, nil
		}
		if attempt == 1 && !faults.On(faults.OverflowUnboundedRecount) {
			return Prepared{}, budgetError(CodeProviderOverflow, "Provider token count %d remains above hard input %d after compaction.",
				n, p.Budget.HardInputTokens)
		}
		prior = append(p.Steps, StepOverflow)
		forced := in
		forced.ForceReason = checkpoint.ReasonProviderOverflow
		if faults.On(faults.OverflowSkipCompaction) {
			forced.ForceReason = ""
		}
		if p, err = m.Prepare(forced); err != nil {
			return Prepared{}, err
		}
	}
}

// RoundRecord is the input of [Manager.CompleteRound].
type RoundRecord struct {
	// Model is the model identity key.
	Model         string
	Prepared      Prepared
	Thinking      string
	VisibleOutput string
	Turn          int
	// Usage is the provider's usage record, nil when it reported none.
	Usage Usage
	// Timestamp is the clock's ISO-8601 time for the ledger entry.
	Timestamp string
}

// CompleteRound records the round in the ledger (RUNTIME §11 step 9) and
// returns the entry; a provider input count calibrates the estimator.
func (m *Manager) CompleteRound(r RoundRecord) LedgerEntry {
	vision := r.Prepared.Vision
	return m.ledger.Record(LedgerRecord{Categories: r.Prepared.Categories, CompactionCount: m.compacted,
		ContextWindow: r.Prepared.Budget.ContextWindow, EstimatedInput: r.Prepared.EstimatedInputTokens, Model: r.Model,
		Profile: m.cfg.Profile, Turn: r.Turn, Usage: r.Usage, VisibleOutput: r.VisibleOutput, Thinking: r.Thinking,
		Vision: &vision, Timestamp: r.Timestamp}, &m.est)
}
