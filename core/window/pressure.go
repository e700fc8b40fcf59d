package window

// A Pressure is the context pressure level of a round (CONTRACTS §12.4).
type Pressure string

// The pressure levels, lowest first.
const (
	Normal  Pressure = "normal"
	Tighten Pressure = "tighten"
	Evict   Pressure = "evict"
	Compact Pressure = "compact"
	Blocked Pressure = "blocked"
)

// Pressures lists the levels, lowest first.
func Pressures() []Pressure { return []Pressure{Normal, Tighten, Evict, Compact, Blocked} }

// Classify returns the pressure of max(current, projected) under b: ≥ hard
// is blocked, ≥ compaction compact, ≥ eviction evict, ≥ tighten tighten,
// else normal.
func (b Budget) Classify(current, projected int) Pressure {
	n := max(current, projected)
	switch {
	case n >= b.HardInputTokens:
		return Blocked
	case n >= b.CompactionThreshold:
		return Compact
	case n >= b.EvictionThreshold:
		return Evict
	case n >= b.TightenThreshold:
		return Tighten
	}
	return Normal
}

// OutputScale returns the tool-output scale of p: 0.75 for tighten, 0.5 for
// evict, compact and blocked, 1 otherwise.
func (p Pressure) OutputScale() float64 {
	switch p {
	case Tighten:
		return 0.75
	case Evict, Compact, Blocked:
		return 0.5
	}
	return 1
}
