package window

import (
	"fmt"
	"math"
)

// A Profile names a context profile (the request's tokenProfile).
type Profile string

// The context profiles.
const (
	Conservative Profile = "conservative"
	Balanced     Profile = "balanced"
	Extended     Profile = "extended"
)

// Profile schema and configuration versions (CONTRACTS §12.4).
const (
	ProfileSchemaVersion = 1
	ProfileConfigVersion = "1.1.0"
)

// Budget-derivation constants (CONTRACTS §12.4).
const (
	// FallbackContextWindow is used when the model reports no window.
	FallbackContextWindow = 65_536
	// MinSafetyReserveTokens is the floor of the safety reserve.
	MinSafetyReserveTokens = 8_192
	// SafetyRateCalibrated and SafetyRateUncalibrated are the window shares
	// held back once provider usage has calibrated the estimator, and before.
	SafetyRateCalibrated   = 0.05
	SafetyRateUncalibrated = 0.10
	// MaxCompactionHeadroom caps the gap kept between compaction and hard.
	MaxCompactionHeadroom = 4_096
)

// ProfileConfig is the fixed configuration of one profile (CONTRACTS
// §12.4).
type ProfileConfig struct {
	CompactionThreshold           int     `json:"compactionThreshold"`
	ConfigVersion                 string  `json:"configVersion"`
	EvictionThreshold             int     `json:"evictionThreshold"`
	MaxToolRoundsBeforeCheckpoint int     `json:"maxToolRoundsBeforeCheckpoint"`
	Name                          Profile `json:"name"`
	OutputReserveTokens           int     `json:"outputReserveTokens"`
	SchemaVersion                 int     `json:"schemaVersion"`
	SoftInputTokens               int     `json:"softInputTokens"`
	TightenThreshold              int     `json:"tightenThreshold"`
	ToolDefinitionBudget          int     `json:"toolDefinitionBudget"`
}

// Profiles lists the profiles in the spec's order.
func Profiles() []Profile { return []Profile{Conservative, Balanced, Extended} }

// Config returns the configuration of p; ok is false for an unknown name.
func (p Profile) Config() (cfg ProfileConfig, ok bool) {
	cfg = ProfileConfig{ConfigVersion: ProfileConfigVersion, Name: p, OutputReserveTokens: 32_768, SchemaVersion: ProfileSchemaVersion}
	switch p {
	case Conservative:
		cfg.TightenThreshold, cfg.EvictionThreshold, cfg.CompactionThreshold = 90_000, 120_000, 150_000
		cfg.SoftInputTokens, cfg.MaxToolRoundsBeforeCheckpoint, cfg.ToolDefinitionBudget = 120_000, 16, 8_000
	case Balanced:
		cfg.TightenThreshold, cfg.EvictionThreshold, cfg.CompactionThreshold = 120_000, 160_000, 190_000
		cfg.SoftInputTokens, cfg.MaxToolRoundsBeforeCheckpoint, cfg.ToolDefinitionBudget = 160_000, 24, 10_000
	case Extended:
		cfg.TightenThreshold, cfg.EvictionThreshold, cfg.CompactionThreshold = 160_000, 190_000, 210_000
		cfg.SoftInputTokens, cfg.MaxToolRoundsBeforeCheckpoint, cfg.ToolDefinitionBudget = 190_000, 32, 16_000
	default:
		return ProfileConfig{}, false
	}
	return cfg, true
}

// Budget is a profile resolved against one model's context window
// (CONTRACTS §12.4 resolveAiCoderContextBudget).
type Budget struct {
	CompactionThreshold   int           `json:"compactionThreshold"`
	ContextWindow         int           `json:"contextWindow"`
	EvictionThreshold     int           `json:"evictionThreshold"`
	FallbackContextWindow bool          `json:"fallbackContextWindow"`
	HardInputTokens       int           `json:"hardInputTokens"`
	OutputReserveTokens   int           `json:"outputReserveTokens"`
	Profile               ProfileConfig `json:"profile"`
	SafetyRate            float64       `json:"safetyRate"`
	SafetyReserveTokens   int           `json:"safetyReserveTokens"`
	SoftInputTokens       int           `json:"softInputTokens"`
	TightenThreshold      int           `json:"tightenThreshold"`
}

// NewBudget resolves profile against a model context window; a window ≤ 0
// means unknown and uses [FallbackContextWindow]. calibrated says whether
// provider usage has calibrated the estimator (the ledger has an actual
// input count). The steps are CONTRACTS §12.4 with the audit correction
// for long contexts:
//
//	safetyReserve = max(8192, ceil(window × (0.05 calibrated | 0.10)))
//	outputReserve = min(profile 32768, floor(window × 0.5))
//	hard          = max(1, window − outputReserve − safetyReserve)
//	soft          = max(1, min(max(profile soft, floor(hard × 0.5)), floor(hard × 0.75)))
//	headroom      = min(4096, max(1, floor(hard × 0.1)))
//	compaction    = min(max(profile compact, floor(hard × 0.7)), max(soft, hard − headroom))
//	tighten       = max(1, min(profile tighten, floor(compaction × profile tighten / profile compact)))
//	eviction      = max(tighten, min(profile evict, floor(compaction × profile evict / profile compact)))
//
// An unknown profile is an error.
func NewBudget(profile Profile, contextWindow int, calibrated bool) (Budget, error) {
	cfg, ok := profile.Config()
	if !ok {
		return Budget{}, fmt.Errorf("window: unknown context profile %q", profile)
	}
	b := Budget{Profile: cfg, ContextWindow: contextWindow}
	if contextWindow <= 0 {
		b.ContextWindow, b.FallbackContextWindow = FallbackContextWindow, true
	}
	w := float64(b.ContextWindow)
	b.SafetyRate = SafetyRateUncalibrated
	if calibrated {
		b.SafetyRate = SafetyRateCalibrated
	}
	b.SafetyReserveTokens = max(MinSafetyReserveTokens, int(math.Ceil(w*b.SafetyRate)))
	b.OutputReserveTokens = min(cfg.OutputReserveTokens, int(math.Floor(w*0.5)))
	hard := max(1, b.ContextWindow-b.OutputReserveTokens-b.SafetyReserveTokens)
	b.HardInputTokens = hard
	h := float64(hard)
	b.SoftInputTokens = max(1, min(max(cfg.SoftInputTokens, int(math.Floor(h*0.5))), int(math.Floor(h*0.75))))
	headroom := min(MaxCompactionHeadroom, max(1, int(math.Floor(h*0.1))))
	b.CompactionThreshold = min(max(cfg.CompactionThreshold, int(math.Floor(h*0.7))), max(b.SoftInputTokens, hard-headroom))
	configured := float64(max(1, cfg.CompactionThreshold))
	c := float64(b.CompactionThreshold)
	b.TightenThreshold = max(1, min(cfg.TightenThreshold, int(math.Floor(c*(float64(cfg.TightenThreshold)/configured)))))
	b.EvictionThreshold = max(b.TightenThreshold, min(cfg.EvictionThreshold, int(math.Floor(c*(float64(cfg.EvictionThreshold)/configured)))))
	return b, nil
}

// RoundMaxOutput returns the maxOutputTokens of a model round (RUNTIME §11
// step 8): max(1, min(outputReserve, modelMax)), where modelMax ≤ 0 means
// the model reports no limit and the reserve applies.
func (b Budget) RoundMaxOutput(modelMax int) int {
	if modelMax <= 0 {
		modelMax = b.OutputReserveTokens
	}
	return max(1, min(b.OutputReserveTokens, modelMax))
}
