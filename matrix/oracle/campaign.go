package oracle

import "github.com/galaxy-stack/conform/matrix/fixture"

// A StageResult is the oracle's verdict on one campaign stage (LAB §7.4).
type StageResult struct {
	// Stage names the stage as campaign messages do: "stage 2 (name)".
	Stage string
	// Failures are the stage's oracle failures.
	Failures []Failure
	// Passed is true when the stage met its oracle; a stage that expects
	// a negative outcome and gets it passes.
	Passed bool
	// Negative is true when the stage expects a failed, canceled or paused
	// final status.
	Negative bool
}

// CheckStage checks stage i (0-based) of c with Check. The campaign goes
// on to the next stage only when the result Passed; otherwise it stops and
// reports Messages.
func CheckStage(c *fixture.Campaign, i int, obs *Observed) StageResult {
	fx := c.Stages[i]
	fs := Check(fx, obs)
	return StageResult{
		Stage:    c.Stage(i),
		Failures: fs,
		Passed:   len(fs) == 0,
		Negative: ExpectsNegative(fx),
	}
}

// Messages returns the stage's failures as the campaign report lists them:
// "stage <n> (<name>): <message with its values>" (Failure.Detail).
func (r StageResult) Messages() []string {
	out := make([]string, len(r.Failures))
	for i, f := range r.Failures {
		out[i] = r.Stage + ": " + f.Detail()
	}
	return out
}

// ExpectsNegative reports whether fx expects a final status other than
// completed: failed, canceled or paused.
func ExpectsNegative(fx *fixture.Fixture) bool {
	return fx.Settings().ExpectedStatus != fixture.StatusCompleted
}
