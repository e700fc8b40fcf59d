package guard

import (
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/core/checkpoint"
)

// Config is the no-progress part of a normalized run budget (RUNTIME §5).
// The controller validates the budget with the original messages before a
// run starts; New only refuses values no valid budget can produce.
type Config struct {
	// RunID names the run; the initial state version is derived from it.
	RunID string
	// Policy is noProgressPolicy: advisory or strict.
	Policy checkpoint.NoProgressPolicy
	// ObservationNudgeThresholds are the advisory thresholds, ascending,
	// without duplicates, each at least 2.
	ObservationNudgeThresholds []int64
	// MaxObservationRepeats is the strict observation nudge limit.
	MaxObservationRepeats int
	// MaxRepeatedToolRequests is the identical-repeat limit.
	MaxRepeatedToolRequests int
	// MaxNoProgressEpisodes is the episode budget before the recovery round
	// and the pause.
	MaxNoProgressEpisodes int
}

// DefaultConfig returns the defaults of RUNTIME §5 for runID: advisory
// policy, thresholds [3, 5, 8] and limits of 2.
func DefaultConfig(runID string) Config {
	return Config{
		RunID:                      runID,
		Policy:                     checkpoint.PolicyAdvisory,
		ObservationNudgeThresholds: []int64{3, 5, 8},
		MaxObservationRepeats:      2,
		MaxRepeatedToolRequests:    2,
		MaxNoProgressEpisodes:      2,
	}
}

func (c Config) check() error {
	if c.Policy != checkpoint.PolicyAdvisory && c.Policy != checkpoint.PolicyStrict {
		return fmt.Errorf("guard: policy %q is not advisory or strict", c.Policy)
	}
	t := c.ObservationNudgeThresholds
	if len(t) == 0 || len(t) > 8 {
		return fmt.Errorf("guard: %d observation nudge thresholds, want 1 to 8", len(t))
	}
	if !slices.IsSorted(t) || len(slices.Compact(slices.Clone(t))) != len(t) || t[0] < 2 {
		return fmt.Errorf("guard: observation nudge thresholds %v are not ascending unique integers >= 2", t)
	}
	for _, f := range []struct {
		name string
		v    int
	}{
		{"maxObservationRepeats", c.MaxObservationRepeats},
		{"maxRepeatedToolRequests", c.MaxRepeatedToolRequests},
		{"maxNoProgressEpisodes", c.MaxNoProgressEpisodes},
	} {
		if f.v < 1 {
			return fmt.Errorf("guard: %s %d is not positive", f.name, f.v)
		}
	}
	return nil
}
