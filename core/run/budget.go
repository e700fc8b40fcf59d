package run

import (
	"math"
	"slices"
)

// Default budget (RUNTIME §5, DECISIONS 1).
const (
	DefaultDeadlineMs              = 1800000
	DefaultMaxTurns                = 48
	DefaultMaxToolCalls            = 256
	DefaultMaxModelRetries         = 3
	DefaultMaxCompletionRejections = 3
	DefaultMaxNoProgressEpisodes   = 2
	DefaultMaxObservationRepeats   = 2
	DefaultMaxRepeatedToolRequests = 2
	DefaultPersistenceGraceMs      = 10000
	DefaultToolOutputMaxBytes      = 48000
	DefaultToolOutputMaxTokens     = 12000
	DefaultToolOutputTailFraction  = 0.25
)

// No-progress policies (RUNTIME §5).
const (
	PolicyAdvisory = "advisory"
	PolicyStrict   = "strict"
)

// DefaultModelRetryDelaysMs is the default retry backoff ladder.
func DefaultModelRetryDelaysMs() []int64 { return []int64{1000, 3000, 8000} }

// DefaultObservationNudgeThresholds are the default advisory thresholds.
func DefaultObservationNudgeThresholds() []int64 { return []int64{3, 5, 8} }

// BudgetInput is the caller's partial budget (RUNTIME §5). Numbers are
// float64 so that the original's finite/positive checks and flooring apply
// to any JSON number; nil members take the defaults. A non-nil empty list is
// present and rejected, as the original rejects [].
type BudgetInput struct {
	DeadlineMs                 *float64          `json:"deadlineMs,omitempty"`
	MaxTurns                   *float64          `json:"maxTurns,omitempty"`
	MaxToolCalls               *float64          `json:"maxToolCalls,omitempty"`
	MaxModelRetries            *float64          `json:"maxModelRetries,omitempty"`
	ModelRetryDelaysMs         []float64         `json:"modelRetryDelaysMs,omitempty"`
	MaxCompletionRejections    *float64          `json:"maxCompletionRejections,omitempty"`
	MaxNoProgressEpisodes      *float64          `json:"maxNoProgressEpisodes,omitempty"`
	MaxObservationRepeats      *float64          `json:"maxObservationRepeats,omitempty"`
	MaxRepeatedToolRequests    *float64          `json:"maxRepeatedToolRequests,omitempty"`
	NoProgressPolicy           string            `json:"noProgressPolicy,omitempty"`
	ObservationNudgeThresholds []float64         `json:"observationNudgeThresholds,omitempty"`
	PersistenceGraceMs         *float64          `json:"persistenceGraceMs,omitempty"`
	ToolOutput                 *ToolOutputBudget `json:"toolOutput,omitempty"`
}

// ToolOutputBudget bounds model-visible tool output.
type ToolOutputBudget struct {
	MaxBytes     *float64 `json:"maxBytes,omitempty"`
	MaxTokens    *float64 `json:"maxTokens,omitempty"`
	TailFraction *float64 `json:"tailFraction,omitempty"`
}

// N returns a pointer to n, for BudgetInput literals.
func N(n float64) *float64 { return &n }

// Budget is a normalized budget.
type Budget struct {
	DeadlineMs                 int64
	MaxTurns                   int
	MaxToolCalls               int
	MaxModelRetries            int
	ModelRetryDelaysMs         []int64
	MaxCompletionRejections    int
	MaxNoProgressEpisodes      int
	MaxObservationRepeats      int
	MaxRepeatedToolRequests    int
	NoProgressPolicy           string
	ObservationNudgeThresholds []int64
	PersistenceGraceMs         int64
	ToolOutputMaxBytes         int
	ToolOutputMaxTokens        int
	ToolOutputTailFraction     float64
}

func positive(name string, v *float64, def int64) (int64, error) {
	return atLeast(name, v, def, 1, "positive")
}

func nonNegative(name string, v *float64, def int64) (int64, error) {
	return atLeast(name, v, def, 0, "non-negative")
}

// atLeast returns *v rounded down, or def when v is nil; NaN, an infinity
// or a value under lo is the RangeError "name must be a what finite
// number.".
func atLeast(name string, v *float64, def int64, lo float64, what string) (int64, error) {
	if v == nil {
		return def, nil
	}
	if math.IsNaN(*v) || math.IsInf(*v, 0) || *v < lo {
		return 0, rangeError("%s must be a %s finite number.", name, what)
	}
	return int64(math.Floor(*v)), nil
}

// NormalizeBudget applies the defaults and checks of RUNTIME §5 to in, in the
// table's order. Errors are *RequestError with the original messages.
func NormalizeBudget(in *BudgetInput) (Budget, error) {
	if in == nil {
		in = &BudgetInput{}
	}
	b := Budget{NoProgressPolicy: PolicyAdvisory, ToolOutputTailFraction: DefaultToolOutputTailFraction}
	var err error
	var v int64
	if b.DeadlineMs, err = positive("deadlineMs", in.DeadlineMs, DefaultDeadlineMs); err != nil {
		return b, err
	}
	if v, err = positive("maxTurns", in.MaxTurns, DefaultMaxTurns); err != nil {
		return b, err
	}
	b.MaxTurns = int(v)
	if v, err = positive("maxToolCalls", in.MaxToolCalls, DefaultMaxToolCalls); err != nil {
		return b, err
	}
	b.MaxToolCalls = int(v)
	if v, err = nonNegative("maxModelRetries", in.MaxModelRetries, DefaultMaxModelRetries); err != nil {
		return b, err
	}
	b.MaxModelRetries = int(v)
	if b.ModelRetryDelaysMs, err = normalizeDelays(in); err != nil {
		return b, err
	}
	for _, f := range []struct {
		name string
		in   *float64
		def  int64
		out  *int
	}{
		{"maxCompletionRejections", in.MaxCompletionRejections, DefaultMaxCompletionRejections, &b.MaxCompletionRejections},
		{"maxNoProgressEpisodes", in.MaxNoProgressEpisodes, DefaultMaxNoProgressEpisodes, &b.MaxNoProgressEpisodes},
		{"maxObservationRepeats", in.MaxObservationRepeats, DefaultMaxObservationRepeats, &b.MaxObservationRepeats},
		{"maxRepeatedToolRequests", in.MaxRepeatedToolRequests, DefaultMaxRepeatedToolRequests, &b.MaxRepeatedToolRequests},
	} {
		if v, err = positive(f.name, f.in, f.def); err != nil {
			return b, err
		}
		*f.out = int(v)
	}
	if in.NoProgressPolicy != "" {
		if in.NoProgressPolicy != PolicyAdvisory && in.NoProgressPolicy != PolicyStrict {
			return b, typeError("noProgressPolicy must be \"advisory\" or \"strict\"; received %s.", in.NoProgressPolicy)
		}
		b.NoProgressPolicy = in.NoProgressPolicy
	}
	if b.ObservationNudgeThresholds, err = normalizeThresholds(in); err != nil {
		return b, err
	}
	if b.PersistenceGraceMs, err = positive("persistenceGraceMs", in.PersistenceGraceMs, DefaultPersistenceGraceMs); err != nil {
		return b, err
	}
	to := in.ToolOutput
	if to == nil {
		to = &ToolOutputBudget{}
	}
	if v, err = positive("toolOutput.maxBytes", to.MaxBytes, DefaultToolOutputMaxBytes); err != nil {
		return b, err
	}
	b.ToolOutputMaxBytes = int(v)
	if v, err = positive("toolOutput.maxTokens", to.MaxTokens, DefaultToolOutputMaxTokens); err != nil {
		return b, err
	}
	b.ToolOutputMaxTokens = int(v)
	if to.TailFraction != nil {
		// Not validated at start (DECISIONS 26); clamped at use.
		b.ToolOutputTailFraction = *to.TailFraction
	}
	return b, nil
}

func isSafeInt(f float64) bool { return f == math.Trunc(f) && math.Abs(f) <= 1<<53-1 }

func normalizeDelays(in *BudgetInput) ([]int64, error) {
	if in.ModelRetryDelaysMs == nil {
		return DefaultModelRetryDelaysMs(), nil
	}
	d := in.ModelRetryDelaysMs
	if len(d) < 1 || len(d) > 8 {
		return nil, rangeError("modelRetryDelaysMs must contain between 1 and 8 delays.")
	}
	out := make([]int64, len(d))
	for i, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) || !isSafeInt(v) || v < 1 || v > 600000 {
			return nil, rangeError("modelRetryDelaysMs entries must be integers between 1 and 600000; index %d received %s.", i, jsNumber(v))
		}
		out[i] = int64(v)
	}
	return out, nil
}

func normalizeThresholds(in *BudgetInput) ([]int64, error) {
	if in.ObservationNudgeThresholds == nil {
		return DefaultObservationNudgeThresholds(), nil
	}
	t := in.ObservationNudgeThresholds
	if len(t) == 0 {
		return nil, rangeError("observationNudgeThresholds must be a non-empty array.")
	}
	if len(t) > 8 {
		return nil, rangeError("observationNudgeThresholds must contain at most 8 thresholds.")
	}
	var out []int64
	for _, v := range t {
		if math.IsNaN(v) || math.IsInf(v, 0) || !isSafeInt(v) || v < 2 {
			return nil, rangeError("observationNudgeThresholds entries must be integers >= 2; received %s.", jsNumber(v))
		}
		if slices.Contains(out, int64(v)) {
			return nil, rangeError("observationNudgeThresholds must not contain duplicate threshold %s.", jsNumber(v))
		}
		out = append(out, int64(v))
	}
	slices.Sort(out)
	return out, nil
}

// jsNumber formats v as JavaScript's String(v) does for the values budgets
// meet.
func jsNumber(v float64) string {
	b, err := jsonNumber(v)
	if err != nil {
		if math.IsNaN(v) {
			return "NaN"
		}
		if v > 0 {
			return "Infinity"
		}
		return "-Infinity"
	}
	return b
}
