package selftest_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

// matrixDir holds the scenario fixtures of the matrix items.
const matrixDir = "../../fixtures/matrix"

// itemDirs are the items whose fixtures this test runs; each fixture must
// pass on the reference host with every core fault off.
var itemDirs = []string{"21-identical-stale-edit", "22-varied-stale-edit", "23-write-hash-cycle", "31-counters-survive-resume",
	"43-multi-call-order", "44-batch-preflight", "45-batch-stop-policy",
	// Items 18, 46, 47, 48.
	"18-probe-timestamp-resume", "46-observation-progress", "47-alternating-cycles", "48-finalization-turns"}

// catches says, per core fault, which fixtures (by name) it must fail and
// the oracle assertions (JSON paths, by prefix) that must report it. A
// fault here that no longer fails its fixtures means the item lost its
// power to catch it.
var catches = []struct {
	fault    string
	fixtures []string
	fails    []string
}{
	{faults.BatchDispatchReversed, []string{"43-same-name-reads", "43-write-then-read"}, []string{"expected.toolSequence"}},
	{faults.BatchAllowDuplicateIDs, []string{"44-duplicate-ids"}, []string{"expected.files", "expected.allowedChanges"}},
	{faults.BatchAllowReusedIDs, []string{"44-reused-id"}, []string{"expected.files", "expected.allowedChanges"}},
	{faults.BatchSkipBudgetCheck, []string{"44-budget-overflow", "44-budget-remaining"}, []string{"expected.files", "expected.allowedChanges"}},
	{faults.BatchSkipInactiveCheck, []string{"44-unknown-tool", "44-inactive-in-mode"}, []string{"expected.toolSequence"}},
	{faults.BatchContinueAfterUnknownOutcome, []string{"45-unknown-outcome-stops", "45-output-schema-failure-stops"}, []string{"expected.toolSequence", "expected.files"}},
	{faults.UnknownOutcomeAsFailure, []string{"45-unknown-outcome-stops", "45-output-schema-failure-stops"}, []string{"expected.toolSequence"}},
	{faults.BatchContinueAfterPendingApproval, []string{"45-pending-approval-blocks"}, []string{"expected.status", "expected.toolResults"}},
	{faults.BatchStopAfterFailedResult, []string{"45-structured-failure-continues"}, []string{"expected.status", "expected.toolSequence"}},
	{faults.GuardSkipIdenticalRepeat, []string{"21 identical stale edits are refused by the host twice, then blocked before dispatch until the run pauses"}, []string{"expected.toolSequence"}},
	{faults.GuardSkipFailedFamily, []string{"22 stale edits of one path with different arguments each reach the host, fail, and pause the run"}, []string{"expected.status"}},
	{faults.GuardSkipWriteHashCycle, []string{"23 writes that toggle mode.txt between two contents pause the run"}, []string{"expected.status"}},
	{faults.ResumeDropsRepeatCount, []string{"31 the identical-repeat count survives a fresh-host resume: the third identical stale edit is blocked before dispatch"}, []string{"expected.toolSequence"}},
	{faults.ResumeDropsFailedFamilies, []string{"31 the failed-mutation family count survives a fresh-host resume: three more varied stale edits pause the run"}, []string{"expected.status"}},
	// Items 18, 46, 47, 48 (finalization-offers-tools changes no oracle
	// assertion: only item 48's Go spec sees the offered tools).
	{faults.ProbeTimestampInResumeCompat, []string{"18 a resume whose capability probe ran later, with the same result, is compatible and completes"}, []string{"expected.status"}},
	{faults.ResumeIgnoresCapabilitiesHash, []string{"18 a resume whose capability probe answers differently is refused CHECKPOINT_INCOMPATIBLE before any tool runs"}, []string{"expected.status"}},
	{faults.GuardCountsIdenticalObservationAsProgress, []string{"46 re-running an identical passing validation is no progress: the third identical re-run is blocked before dispatch",
		"46 re-reviewing an unchanged diff is no progress: the task-state read that repeats the cycle is blocked before dispatch"}, []string{"expected.toolSequence"}},
	{faults.GuardSkipToolCycle, []string{"47 alternating successful task-state reads are blocked before dispatch, and the inspected run finalizes tool-free",
		"47 alternating successful task-state reads with an open criterion are blocked before dispatch until the run pauses"}, []string{"expected.toolSequence"}},
	{faults.FinalizationDispatchesToolCall, []string{"48 once write, validation and diff evidence is ready the turns offer no tools, and a tool call in one is rejected without dispatch"}, []string{"expected.completionIssuesInclude"}},
}

// loadItems loads the fixtures of itemDirs, by name.
func loadItems(t *testing.T) map[string]*fixture.Fixture {
	t.Helper()
	out := map[string]*fixture.Fixture{}
	for _, d := range itemDirs {
		fxs, err := fixture.Load(filepath.Join(matrixDir, d))
		if err != nil {
			t.Fatalf("load %s: %v", d, err)
		}
		for _, fx := range fxs {
			out[fx.Name] = fx
		}
	}
	return out
}

// runAll runs the named fixtures concurrently against the reference host
// (this test binary re-executed) and returns their reports by name.
func runAll(t *testing.T, all map[string]*fixture.Fixture, names []string) map[string]*lab.Report {
	t.Helper()
	argv, err := builtin.Command("reference")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	out := map[string]*lab.Report{}
	for _, n := range names {
		fx, ok := all[n]
		if !ok {
			t.Fatalf("no fixture named %q under %s", n, matrixDir)
		}
		wg.Go(func() {
			// No fixture here depends on containment; forbidding every
			// backend spares each host its containment probe.
			rep, err := lab.Run(context.Background(), fx, lab.Options{Argv: argv, ForbidContainment: true}, false)
			if err != nil {
				t.Errorf("%s: %v", n, err)
				return
			}
			mu.Lock()
			out[n] = rep
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

func failures(rep *lab.Report) []string {
	var out []string
	for _, f := range rep.Failures {
		out = append(out, f.String())
	}
	return out
}

// TestItemFixturesCatchCoreFaults runs the fixtures of itemDirs against
// the reference host with every core fault off (each must pass), then with
// each fault of catches on (each listed fixture must fail, on the listed
// assertions).
func TestItemFixturesCatchCoreFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a host process per fixture run")
	}
	all := loadItems(t)
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	slices.Sort(names)
	for n, rep := range runAll(t, all, names) {
		if !rep.Passed {
			t.Errorf("%s fails with every core fault off:\n%s", n, strings.Join(failures(rep), "\n"))
		}
	}
	for _, c := range catches {
		t.Run(c.fault, func(t *testing.T) {
			undo, err := faults.Enable(c.fault)
			if err != nil {
				t.Fatal(err)
			}
			defer undo()
			for n, rep := range runAll(t, all, c.fixtures) {
				if rep.Passed {
					t.Errorf("%s passes with core fault %s on", n, c.fault)
					continue
				}
				t.Logf("%s fails as it should:\n%s", n, strings.Join(failures(rep), "\n"))
				for _, want := range c.fails {
					if !slices.ContainsFunc(rep.Failures, func(f oracle.Failure) bool { return strings.HasPrefix(f.Assertion, want) }) {
						t.Errorf("%s with %s on: no failure on %s; failures:\n%s", n, c.fault, want, strings.Join(failures(rep), "\n"))
					}
				}
			}
		})
	}
}
