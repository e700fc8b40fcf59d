package matrix

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/hostcmd"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/failure"
	"github.com/galaxy-stack/conform/matrix/kit"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/progress"
	"github.com/galaxy-stack/conform/matrix/session"
	"github.com/galaxy-stack/conform/reports"
	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/format"
)

// Version is the version of the matrix: the set of items and what they
// check.
const Version = "0.1.0"

// Config says what to certify and how to report it.
type Config struct {
	Host   string // the --host value: a built-in name or a command line
	Mutant string // a named fault of the reference host
	// Variant is a named permitted variation of the reference host
	// (package variants).
	Variant string
	// CoreFault is a named fault of conform's bundled core (package
	// core/faults), switched on for the whole certification.
	CoreFault string
	Only      []int  // item IDs to run; empty runs all
	Area      string // run only this area
	// Skip are item IDs not to run: the document lists them as skipped
	// with SkippedByRequestReason.
	Skip []int
	// Out receives one line per item as it finishes; nil discards them.
	Out io.Writer
	// Color colours the status marks of Out.
	Color bool
	// TTY says Out is a terminal: a running count is kept on its last
	// line.
	TTY bool
	// ItemTimeout bounds each spec of an item; zero means
	// DefaultItemTimeout. The run as a whole is bounded by the context
	// given to Run.
	ItemTimeout time.Duration
	// HostEnv names environment variables passed to the host in addition
	// to the harness's allowlist (conform's --host-env).
	HostEnv []string
	// Repro, if set, writes the self-contained repro of each scenario
	// spec that fails its scenario's expectations and returns its path,
	// which the item's reason names and whose run command becomes the
	// item's repro.
	Repro func(ReproRequest) (string, error)
}

// An InvocationError means the certification could not start as asked: a
// bad selection, or a host command that cannot be found. It is the lab's
// type (a fixture that cannot be run as asked is one too), so that a
// command line maps both to exit status 2 in one place.
type InvocationError = lab.InvocationError

// target is the host under test for the specs of this process.
type target struct {
	cfg  Config
	host *kit.Host

	mu    sync.Mutex
	init  *wire.InitializeResult // the host's first initialize answer
	items map[int]*reports.Item
	order []int

	started time.Time
	prog    *progress.Printer
}

// current is the certification of this process, and bench what its items
// read: the runner's state, never read by item code.
var (
	current *target
	bench   = &kit.Bench{}
)

func newTarget(cfg Config) (*target, error) {
	argv, err := builtin.Argv(cfg.Host, cfg.Mutant, cfg.Variant)
	if err != nil {
		return nil, &InvocationError{Err: err}
	}
	if err := hostcmd.Check(argv); err != nil {
		return nil, &InvocationError{Err: fmt.Errorf("host command %q cannot be started: %w", cfg.Host, err)}
	}
	t := &target{cfg: cfg, items: map[int]*reports.Item{}, started: time.Now()}
	t.host = &kit.Host{Name: cfg.Host, Mutant: cfg.Mutant, Variant: cfg.Variant, CoreFault: cfg.CoreFault, Argv: argv, Env: cfg.HostEnv, OnInit: t.sawHost, RunContext: runContext}
	if cfg.Out != nil {
		total := 0
		for _, it := range registry {
			if t.selected(it) {
				total++
			}
		}
		t.prog = progress.New(cfg.Out, cfg.Color, cfg.TTY, total)
	}
	return t, nil
}

// labelFilter builds the Ginkgo label filter for a selection.
func labelFilter(cfg Config) string {
	var parts []string
	if len(cfg.Only) > 0 {
		ids := make([]string, len(cfg.Only))
		for i, id := range cfg.Only {
			ids[i] = strconv.Itoa(id)
		}
		parts = append(parts, "item: containsAny {"+strings.Join(ids, ",")+"}")
	}
	if cfg.Area != "" {
		parts = append(parts, "area: containsAny {"+cfg.Area+"}")
	}
	if len(cfg.Skip) > 0 {
		ids := make([]string, len(cfg.Skip))
		for i, id := range cfg.Skip {
			ids[i] = strconv.Itoa(id)
		}
		parts = append(parts, "!(item: containsAny {"+strings.Join(ids, ",")+"})")
	}
	return strings.Join(parts, " && ")
}

func checkSelection(cfg Config) error {
	for _, id := range cfg.Only {
		if _, ok := meta(id); !ok {
			return &InvocationError{Err: fmt.Errorf("--only %d: no such matrix item (see `conform matrix`)", id)}
		}
		if _, ok := registry[id]; !ok {
			return &InvocationError{Err: fmt.Errorf("--only %d: item %d is planned but not runnable in this version (see `conform matrix`)", id, id)}
		}
	}
	if cfg.Area != "" && !validArea(cfg.Area) {
		return &InvocationError{Err: fmt.Errorf("--area %q: unknown area (one of %s)", cfg.Area, strings.Join(Areas, ", "))}
	}
	for _, id := range cfg.Skip {
		if _, ok := meta(id); !ok {
			return &InvocationError{Err: fmt.Errorf("--skip %s: no such matrix item (see `conform matrix`)", RefOf(id))}
		}
	}
	return checkNotEmpty(cfg)
}

// errNoItems is Run's error in a program that registered no item.
var errNoItems = errors.New("matrix: no item is registered; import github.com/galaxy-stack/conform/matrix/items for its registrations")

type failRecorder struct{ failed bool }

func (f *failRecorder) Fail() { f.failed = true }

// Run runs the selected items against cfg.Host in this process and returns
// the result document. It may be called once per process (Ginkgo runs its
// suite once); a second certification needs a child process.
//
// ctx bounds the run: when it ends, the running item's session ends with
// ctx's cause as its reason and the items not yet started are skipped.
// Ginkgo handles SIGINT and SIGTERM itself while the items run: the item
// running at the signal is skipped as interrupted, never failed, and the
// rest are skipped; the caller marks the document interrupted.
func Run(ctx context.Context, cfg Config) (*reports.Document, error) {
	if errs := RegistrationErrors(); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(catalog) == 0 {
		return nil, errNoItems
	}
	if err := checkSelection(cfg); err != nil {
		return nil, err
	}
	t, err := newTarget(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.CoreFault != "" {
		undo, err := faults.Enable(cfg.CoreFault)
		if err != nil {
			return nil, &InvocationError{Err: fmt.Errorf("--core-fault %q: %w (see `conform selftest --list`)", cfg.CoreFault, err)}
		}
		defer undo()
	}
	current = t
	bench.SetHost(t.host)
	// A host that leaves initialize unanswered twice in a row ends the run:
	// the items left are skipped with that reason (session.InitWatch).
	ctx, endRun := context.WithCancelCause(ctx)
	defer endRun(nil)
	setRunContext(session.WithInitWatch(ctx, session.NewInitWatch(endRun)))
	defer setRunContext(nil)
	suite, rep := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig()
	suite.LabelFilter = labelFilter(cfg)
	// ctx is the run's only bound; Ginkgo's own default of one hour would
	// otherwise fail every item after it, unnamed.
	suite.Timeout = 0
	rep.NoColor = true
	formatter.ColorableStdOut = io.Discard // conform prints its own lines
	format.TruncatedDiff = false           // failure.Reason clips values itself
	RegisterFailHandler(Fail)
	buildTree()
	RunSpecs(&failRecorder{}, "conform host-conformance matrix", suite, rep)
	t.prog.Finish()
	d := t.document()
	if words, err := builtin.Words(cfg.Host); err == nil && !builtin.IsBuiltin(cfg.Host) {
		id := hostcmd.Identify(words, t.host.Argv)
		d.Host.ProgramPath, d.Host.ProgramSHA256 = id.Program, id.ProgramSHA256
	}
	return d, nil
}

// UseHost points the specs of this process at host; the project's own test
// suite calls it before RunSpecs.
func UseHost(cfg Config) error {
	t, err := newTarget(cfg)
	if err != nil {
		return err
	}
	current = t
	bench.SetHost(t.host)
	buildTree()
	return nil
}

var _ = ReportBeforeEach(func(r SpecReport) {
	if current == nil {
		return
	}
	if id, ok := itemOf(r.Labels()); ok && current.selected(registry[id]) {
		current.prog.Starting(id, RefOf(id), registry[id].Title)
	}
})

var _ = ReportAfterEach(func(r SpecReport) {
	if current != nil {
		current.collect(r)
	}
})

func itemOf(labels []string) (int, bool) {
	for _, l := range labels {
		if s, ok := strings.CutPrefix(l, "item:"); ok {
			if id, err := strconv.Atoi(s); err == nil {
				return id, true
			}
		}
	}
	return 0, false
}

func (t *target) collect(r SpecReport) {
	id, ok := itemOf(r.Labels())
	if !ok {
		return
	}
	meta := registry[id]
	// An interrupted suite reports every remaining spec as skipped, the
	// ones the selection filtered out included: those were never asked for.
	if !t.selected(meta) {
		return
	}
	status, reason := reports.Passed, ""
	switch {
	case r.State == types.SpecStateSkipped:
		status = reports.Skipped
		reason = r.Failure.Message
		if s, ok := strings.CutPrefix(reason, kit.NotApplicablePrefix); ok {
			status, reason = reports.NotApplicable, s
		}
	case r.State.Is(types.SpecStateInterrupted),
		r.State.Is(types.SpecStateFailureStates) && interrupted():
		// A signal stopped the spec: it did not fail, it did not finish.
		// The signal also ends the run's context, and a session that sees
		// that first fails its spec before Ginkgo marks it interrupted.
		status, reason = reports.Skipped, InterruptedReason
	case r.State.Is(types.SpecStateFailureStates):
		status = reports.Failed
		reason = failure.Reason(r.Failure.Message)
		if r.Failure.ForwardedPanic != "" {
			reason = strings.TrimSpace(reason + ": " + r.Failure.ForwardedPanic)
		}
	}
	// What conform had to do to the host (kill it, kill what it left
	// running, ignore output after shutdown) is reported whatever the
	// status: a passing item says so too.
	for _, e := range r.ReportEntries {
		if e.Name == kit.IncidentEntry {
			reason = strings.TrimSpace(reason + "\nincident: " + e.StringRepresentation())
		}
		if e.Name == kit.AllowanceEntry && !strings.Contains(reason, e.StringRepresentation()) {
			reason = strings.TrimSpace(reason + "\nallowance: " + e.StringRepresentation())
		}
		// A check the spec could not make on this host: the spec passes
		// on what it checked, and the item says what it did not.
		if e.Name == kit.UncheckedEntry && !strings.Contains(reason, e.StringRepresentation()) {
			reason = strings.TrimSpace(reason + "\nnot checked: " + e.StringRepresentation())
		}
	}
	var reproCmd string
	if status == reports.Failed {
		reason, reproCmd = t.scenarioRepro(id, r, reason)
	}
	t.mu.Lock()
	it, seen := t.items[id]
	if !seen {
		it = &reports.Item{ID: id, Ref: RefOf(id), Name: meta.Name, Title: meta.Title, Area: meta.Area, Scope: meta.Scope, Status: status}
		t.items[id] = it
		t.order = append(t.order, id)
	}
	it.DurationMs += r.RunTime.Milliseconds()
	if rank(status) > rank(it.Status) {
		it.Status = status
	}
	// A failed item's reason ends with the section of the host author's
	// reference that states the contract it checks, once.
	note := contractNote(meta)
	it.Reason = strings.TrimSuffix(it.Reason, note)
	// A scenario that does not apply is listed with its reason, and said
	// in the item's reason as "not applicable: <scenario>: <reason>", so
	// that every report shows it whatever the item's status.
	if status == reports.NotApplicable {
		it.NotApplicable = append(it.NotApplicable, reports.NotApplicableScenario{Scenario: r.LeafNodeText, Reason: reason})
		slices.SortStableFunc(it.NotApplicable, func(a, b reports.NotApplicableScenario) int { return strings.Compare(a.Scenario, b.Scenario) })
		reason = ""
	}
	reason = dropSaid(reason, it.Reason)
	// The specs of an item skipped for one reason (the run ended, the host
	// is dead) say it once.
	if reason != "" && (status != reports.Skipped || !strings.Contains(it.Reason, reason)) {
		if it.Reason != "" {
			it.Reason += "\n"
		}
		it.Reason += reason
	}
	if len(it.NotApplicable) > 0 {
		it.Reason = naReason(it.Reason, it.NotApplicable)
	}
	if it.Status == reports.Failed {
		it.Reason += note
	}
	if status == reports.Failed {
		it.FailedChecks = append(it.FailedChecks, failedCheck(r))
	}
	if status == reports.Failed && it.Repro == "" {
		it.Repro = reproCmd
	}
	if status == reports.Failed && it.Repro == "" {
		it.Repro = specRepro(r)
		if it.Repro == "" {
			it.Repro = t.repro(id)
		}
	}
	snapshot := *it
	t.mu.Unlock()
	t.prog.Update(snapshot)
}

// dropSaid returns reason without its allowance and not-checked lines
// that the item's reason already holds: several specs of one item may
// record the same, and the item says it once.
func dropSaid(reason, said string) string {
	if reason == "" || said == "" {
		return reason
	}
	old := strings.Split(said, "\n")
	var keep []string
	for _, l := range strings.Split(reason, "\n") {
		if (strings.HasPrefix(l, "allowance: ") || strings.HasPrefix(l, "not checked: ")) && slices.Contains(old, l) {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// naPrefix starts the line of an item's reason that names one scenario
// that did not apply.
const naPrefix = "not applicable: "

// naReason returns reason with its not-applicable lines replaced by one
// per scenario of na, in na's order, after the other lines.
func naReason(reason string, na []reports.NotApplicableScenario) string {
	var lines []string
	if reason != "" {
		for _, l := range strings.Split(reason, "\n") {
			if !strings.HasPrefix(l, naPrefix) {
				lines = append(lines, l)
			}
		}
	}
	for _, n := range na {
		lines = append(lines, naPrefix+n.Scenario+": "+n.Reason)
	}
	return strings.Join(lines, "\n")
}

// specRepro returns the repro command a spec recorded, or "".
func specRepro(r SpecReport) string {
	for _, e := range r.ReportEntries {
		if e.Name == kit.ReproEntry {
			return e.StringRepresentation()
		}
	}
	return ""
}

// selected reports whether the certification's --only, --area and --skip
// ask for it.
func (t *target) selected(it Item) bool { return selects(t.cfg, it) }

// rank orders the statuses of an item's specs: the item takes its
// highest-ranked one. A failed spec fails the item; a skipped one (an
// interrupted run) keeps it from passing; a scenario that does not apply
// to the host does not stop the others from passing the item, and only an
// item none of whose scenarios applies is not_applicable. Either way the
// item lists every scenario that did not apply, with its reason
// (reports.Item.NotApplicable), and the document counts them: an item
// passes only on the scenarios it ran, and says which it did not.
func rank(s string) int {
	switch s {
	case reports.Failed:
		return 3
	case reports.Skipped:
		return 2
	case reports.Passed:
		return 1
	}
	return 0
}

func (t *target) repro(id int) string {
	cmd := "conform certify --host " + kit.Quote(t.cfg.Host)
	return cmd + kit.FaultFlags(t.cfg.Mutant, t.cfg.CoreFault) + kit.VariantFlag(t.cfg.Variant) + " --only " + RefOf(id)
}

// sawHost records what the host said it is, from its first session.
func (t *target) sawHost(h wire.InitializeResult) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.init == nil {
		t.init = &h
	}
}

func (t *target) document() *reports.Document {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := &reports.Document{
		SchemaVersion: reports.SchemaVersion,
		Kind:          reports.KindCertify,
		Harness:       reports.NewHarness(),
		StartedAt:     t.started.UTC().Format(time.RFC3339),
		Host:          reports.Host{Command: t.cfg.Host, Mutant: t.cfg.Mutant, Variant: t.cfg.Variant, CoreFault: t.cfg.CoreFault, BinarySHA256: binaryHash(t.host.Argv[0])},
		OS:            runtime.GOOS, Arch: runtime.GOARCH,
		MatrixVersion: Version,
		Items:         []reports.Item{},
	}
	if t.init != nil {
		d.Host.Name, d.Host.Version, d.Host.Doubles = t.init.Host.Name, t.init.Host.Version, t.init.Doubles
		d.Host.Tools = slices.Sorted(slices.Values(t.init.Tools))
		d.Host.ToolProfile = lab.ToolProfile(t.init.Tools)
		d.Host.PromptInput = lab.PromptSource(t.init.PromptInput)
	}
	d.Planned = Planned(t.cfg)
	ids := append([]int(nil), t.order...)
	sort.Ints(ids)
	for _, id := range ids {
		d.Items = append(d.Items, *t.items[id])
	}
	d.Items = withSkipped(t.cfg, d.Items)
	d.Tally()
	return d
}

// binaryHash is the SHA-256 of the executable name, streamed from disk;
// "" when it cannot be found or read.
func binaryHash(name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	sum, _ := hostcmd.HashFile(p)
	return sum
}
