package kit

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/fixtures"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/session"
	"github.com/galaxy-stack/conform/reports"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A Check is an item's Gomega assertions on one scenario's outcome beyond
// what the fixture's oracle checks.
type Check func(o *Outcome)

// An Outcome is one scenario run: the lab's report, and the run's
// directories, which exist until the check returns.
type Outcome struct {
	*lab.Report
	// TestContext is the item's: the host under test and the spec's bound.
	*TestContext
	// File is the scenario's repository path.
	File string
	// Workspace, Outside and Store are the run's directories.
	Workspace, Outside, Store string
	// Task is the scenario's task, the goal of the run request.
	Task string

	// uncontained is the fresh uncontained host the check's calls share,
	// started on first use.
	uncontained *session.Host
	// uncontainedRun is set when the run's host was told to use no
	// containment backend (the scenario's forbidContainmentBackends or the
	// lab's ForbidContainment), so its commands ran in this system's
	// namespaces and the process table shows them.
	uncontainedRun bool
}

// Scenarios registers one spec per scenario file of the item being
// described (fixtures/matrix/NN-name/*.json). Each runs the fixture against
// the host under test through the lab's runner and oracle; cases, keyed by
// file name, give the sentences each scenario enforces and the item's own
// assertions on it. Every scenario file needs a case, and a case for a file
// that does not exist is a registration error.
func (c *TestContext) Scenarios(cases map[string]Case) {
	dir := c.Dir
	names, err := ScenarioFiles(dir)
	if err != nil || len(names) == 0 {
		c.Bug(fmt.Errorf("matrix item %d: no scenarios in %s/%s (%v)", c.ID, fixtures.MatrixDir, dir, err))
		return
	}
	for name := range cases {
		if !slices.Contains(names, name) {
			c.Bug(fmt.Errorf("matrix item %d: a case names %s, which is not a scenario of %s", c.ID, name, dir))
		}
	}
	for _, name := range names {
		file := path.Join(dir, name)
		cs, ok := cases[name]
		if !ok {
			c.Bug(fmt.Errorf("matrix item %d: scenario %s/%s has no case: say which contract sentences it enforces (kit.On)", c.ID, dir, name))
		}
		c.It(strings.TrimSuffix(name, ".json"), strings.Join(cs.Sentences, " "), func() { c.runScenario(file, cs.Check, cs.watch) })
	}
}

// ScenarioFiles lists the .json files of dir, sorted.
func ScenarioFiles(dir string) ([]string, error) {
	entries, err := fs.ReadDir(fixtures.Matrix(), dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// loadScenario parses the embedded scenario at rel (relative to
// fixtures.Matrix()), naming it by its repository path.
func loadScenario(rel string) (*fixture.Fixture, string, error) {
	data, err := fs.ReadFile(fixtures.Matrix(), rel)
	if err != nil {
		return nil, "", err
	}
	file := fixtures.MatrixDir + "/" + rel
	fx, err := fixture.Parse(file, data)
	return fx, file, err
}

// RunScenario runs the scenario rel against the host under test, fails the
// spec with the oracle's failures and a repro command that runs the file
// alone, then runs chk, if any, on the outcome.
func (c *TestContext) RunScenario(rel string, chk Check) {
	GinkgoHelper()
	c.runScenario(rel, chk, nil)
}

// runScenario is RunScenario with an optional watch on one call's answer.
func (c *TestContext) runScenario(rel string, chk Check, watch *answerWatch) {
	GinkgoHelper()
	fx, file, err := loadScenario(rel)
	if err != nil {
		Fail(fmt.Sprintf("scenario %s does not load: %v", rel, err))
	}
	t := c.Host()
	if reason := t.NotApplicable(fx); reason != "" {
		NotApplicable(reason)
	}
	ctx := c.Ctx()
	opts := t.LabOptions()
	if watch != nil {
		// Each spec run gets a watch of its own.
		watch = &answerWatch{callID: watch.callID, probe: watch.probe}
		opts.Interpose = watch.interpose
	}
	rep, err := lab.Run(ctx, fx, opts, true)
	if rep != nil && rep.Workspace != "" {
		defer os.RemoveAll(filepath.Dir(rep.Workspace))
	}
	if cause := context.Cause(ctx); cause != nil {
		FailedBy(reports.CauseDeadline)
		Fail(fmt.Sprintf("scenario %s: %v", file, cause))
	}
	if err != nil {
		FailedBy(reports.CauseHarness)
		Fail(fmt.Sprintf("scenario %s could not run: %v", file, err))
	}
	for _, inc := range rep.Incidents {
		AddReportEntry(IncidentEntry, inc)
	}
	if watch != nil {
		if answered, finding := watch.result(); answered && finding != "" {
			AddReportEntry(ReproEntry, t.RunRepro(file))
			Fail(fmt.Sprintf("%s: %s", file, finding))
		}
	}
	if rep.NotApplicable != "" {
		NotApplicable(rep.NotApplicable)
	}
	if !rep.Passed {
		switch rep.HostFailure {
		case lab.HostFailedSchema:
			FailedBy(reports.CauseSchema)
		case lab.HostFailedTransport:
			FailedBy(reports.CauseHost)
		}
		AddReportEntry(ReproEntry, t.RunRepro(file))
		AddReportEntry(ScenarioEntry, file)
		Fail(describeFailures(file, rep))
	}
	if chk != nil {
		parent := filepath.Dir(rep.Workspace)
		chk(&Outcome{Report: rep, TestContext: c, File: file, Task: fx.Task, Workspace: rep.Workspace, Outside: filepath.Join(parent, fixture.OutsideDir), Store: filepath.Join(parent, "store"),
			uncontainedRun: forbidsContainment(fx, opts)})
	}
}

// describeFailures renders a failed report: the scenario, then each failed
// assertion with its message.
func describeFailures(file string, rep *lab.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: status %s", file, rep.Status)
	if rep.ErrorCode != nil {
		fmt.Fprintf(&b, " %s", *rep.ErrorCode)
	}
	if rep.ErrorMessage != "" {
		fmt.Fprintf(&b, " (%s)", rep.ErrorMessage)
	}
	for _, f := range rep.Failures {
		fmt.Fprintf(&b, "\n  %s: %s", f.Assertion, f.Detail())
	}
	return b.String()
}

// requiredTools are the tools every host must back: a host without a
// workspace is no host of this runtime. A scenario calling any other tool
// the host does not back is not applicable to it.
func requiredTools() []string {
	return []string{"workspace.list", "workspace.read", "workspace.write", "workspace.edit", "workspace.glob", "workspace.grep"}
}

// usedTools returns the canonical IDs of the catalog tools fx's model
// calls, sorted; names the catalog does not know are left out (they are
// what some scenarios test).
func usedTools(fx *fixture.Fixture) []string {
	byName := map[string]string{}
	for _, d := range catalog.ForHost().Tools {
		byName[d.ModelName] = d.ID
	}
	seen := map[string]bool{}
	for _, r := range fx.Rounds {
		for _, call := range r.ToolCalls {
			if id, ok := byName[call.ToolName]; ok {
				seen[id] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// KeptInode asserts that the workspace file rel is still the inode it was
// before the run: a rejected mutation must not replace its target.
func (o *Outcome) KeptInode(rel string) {
	GinkgoHelper()
	same, err := o.InitialFiles.SameFile(o.Workspace, rel)
	Expect(err).NotTo(HaveOccurred(), "%s: the harness cannot compare %s with the file before the run", o.File, rel)
	Expect(same).To(BeTrue(), "%s: %s was replaced by another inode; a rejected mutation must leave its target untouched", o.File, rel)
}

// ReplacedInode asserts that the regular file rel is another inode than
// the one the run started with: a successful write_file replacement is
// atomic, a temporary file renamed over the target (workspace.write,
// "Required"), so a host that truncates and rewrites the target in place,
// where a reader can see it half written, fails.
func (o *Outcome) ReplacedInode(rel string) {
	GinkgoHelper()
	same, err := o.InitialFiles.SameFile(o.Workspace, rel)
	Expect(err).NotTo(HaveOccurred(), "%s: the harness cannot compare %s with the file before the run", o.File, rel)
	Expect(same).To(BeFalse(), "%s: %s keeps the inode it had before write_file replaced it; a replacement must be atomic, a temporary file renamed over the target, not the target rewritten in place", o.File, rel)
}

// forbidsContainment reports whether a run of fx with opts tells its host
// to use no containment backend.
func forbidsContainment(fx *fixture.Fixture, opts lab.Options) bool {
	return opts.ForbidContainment || (fx.Conform != nil && fx.Conform.ForbidContainmentBackends)
}
