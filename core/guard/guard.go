package guard

import (
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
)

// cycleHistoryLimit is how many cycle-history entries are kept (RUNTIME §15
// step 5).
const cycleHistoryLimit = 24

// writeHistoryLimit is how many states a path's write history keeps
// (RUNTIME §18.5).
const writeHistoryLimit = 12

// StableObservationToolIDs are the canonical tools whose identical calls
// form an observation family (RUNTIME §15 step 8), in text order.
var stableObservationToolIDs = []string{
	"artifact.list", "artifact.read", "git.exec", "project.detect",
	"research.fetch", "research.search", "workspace.glob", "workspace.grep",
	"workspace.list", "workspace.read",
}

// IsStableObservation reports whether canonicalID is a stable observation
// tool (RUNTIME §15 step 8).
func IsStableObservation(canonicalID string) bool {
	_, ok := slices.BinarySearch(stableObservationToolIDs, canonicalID)
	return ok
}

// cycleEntry is one entry of the tool-cycle history.
type cycleEntry struct {
	argumentsHash, name, stateVersion string
}

// A Guard is the no-progress state of one execution segment of a run: the
// state version, the repeat and cycle history, the observation, failed
// mutation, write-state and validation counters, and the episode budget
// (RUNTIME §17, §18). It is a deterministic state machine without I/O: the
// controller feeds it each call before and after dispatch and each batch,
// and exports it into checkpoints. A Guard is not safe for concurrent use;
// the run goroutine owns it.
type Guard struct {
	cfg Config

	stateVersion      string
	previousFP        string
	repeated          int64
	cycle             []cycleEntry
	observations      map[string]int64
	failedFamilies    boundedCounter
	hostStateVersions map[string]string
	writeHistory      map[string][]string
	validationFails   boundedCounter
	flagged           map[string]bool

	episodes        int
	lastEpisodeTurn int
	recoveryUsed    bool
}

// New returns the guard of a fresh run: state version = the stable JSON of
// {runId, state: "created"} (RUNTIME §17), every counter empty. It returns
// an error only for a configuration no normalized budget can produce.
func New(cfg Config) (*Guard, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	cfg.ObservationNudgeThresholds = slices.Clone(cfg.ObservationNudgeThresholds)
	initial, err := canon.Marshal(map[string]string{"runId": cfg.RunID, "state": "created"})
	if err != nil {
		return nil, err
	}
	return &Guard{
		cfg:               cfg,
		stateVersion:      string(initial),
		observations:      map[string]int64{},
		hostStateVersions: map[string]string{},
		writeHistory:      map[string][]string{},
		flagged:           map[string]bool{},
		lastEpisodeTurn:   -1,
	}, nil
}

// StateVersion returns the current semantic state version (RUNTIME §17).
func (g *Guard) StateVersion() string { return g.stateVersion }

// Episodes returns the no-progress episode count.
func (g *Guard) Episodes() int { return g.episodes }

// RecoveryUsed reports whether this segment's recovery round was granted.
func (g *Guard) RecoveryUsed() bool { return g.recoveryUsed }

// Config returns the guard's configuration.
func (g *Guard) Config() Config {
	c := g.cfg
	c.ObservationNudgeThresholds = slices.Clone(c.ObservationNudgeThresholds)
	return c
}

// countEpisode counts at most one episode per model turn (RUNTIME §18.6).
func (g *Guard) countEpisode(turn int) {
	if g.lastEpisodeTurn != turn {
		g.lastEpisodeTurn = turn
		g.episodes++
	}
}

// incident records a no-progress incident (RUNTIME §18.4): one episode,
// the call flagged, and the incident feedback returned.
func (g *Guard) incident(c Call, detail, strategy string) string {
	g.countEpisode(c.Turn)
	g.flagged[c.ToolCallID] = true
	return incidentFeedback(c, detail, strategy)
}

// resetProgress is the counter reset of RUNTIME §17 step 8.
func (g *Guard) resetProgress() {
	g.repeated = 0
	g.episodes = 0
	g.lastEpisodeTurn = -1
}

// policy returns the configured policy as text.
func (g *Guard) policy() string { return string(g.cfg.Policy) }

func (g *Guard) advisory() bool { return g.cfg.Policy == checkpoint.PolicyAdvisory }
