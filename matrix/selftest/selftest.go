// Package selftest shows that the matrix can fail, and that it fails only
// what the contract forbids: it certifies the reference host, then every
// named fault — each mutant of the reference host and each core fault of
// conform's bundled runtime — against the items that could catch it, and
// builds the kill matrix (fault × items that failed); then every permitted
// variation of the reference host (package variants) against every item,
// the acceptance matrix, where any failure is an over-specified check.
//
// Each certification is a child `conform certify` process (Ginkgo runs
// its suite once per process) writing its result document to a temporary
// file. The self-test passes when the reference host passes every runnable
// item, every fault with a runnable target is killed, and every runnable
// item kills a fault of its scope: a host-scope item some mutant, a
// core-scope item some core fault. An item that kills none "cannot fail".
// It fails too when any item fails a variant.
package selftest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/galaxy-stack/conform/hosts/mutants"
	"github.com/galaxy-stack/conform/internal/proc"
	"github.com/galaxy-stack/conform/matrix"
	_ "github.com/galaxy-stack/conform/matrix/items" // registers the matrix items
	"github.com/galaxy-stack/conform/reports"
)

// Fault kinds.
const (
	KindMutant = "mutant"
	KindCore   = "core"
	// KindControl is a control host (builtin.Controls): it fails as a
	// host, breaking no guarantee in particular, and must never be
	// credited a kill.
	KindControl = "control"
)

// Fault statuses.
const (
	Killed   = "killed"
	Survived = "survived"
	// Collateral: items failed against the fault, but none on an
	// assertion of a sentence the fault breaks (the host died, a deadline
	// passed, a check of another guarantee failed).
	Collateral = "collateral"
	Untargeted = "untargeted"
	// Untestable: the fault survived only because every check of its
	// targets that enforces a sentence it breaks was not applicable on
	// this machine (no bubblewrap, no symbolic links): not a survivor, and
	// Error says why and what to install.
	Untestable = "untestable"
	Broken     = "error"
)

// A Fault is one named fault the self-test runs.
type Fault struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	// Breaks is the guarantee or rule the fault breaks.
	Breaks string `json:"breaks"`
	// Sentences are the keys of the contract sentences it breaks: a kill
	// counts only when an item fails on an assertion of one of them.
	Sentences []string `json:"sentences"`
	// Targets are the items that could catch the fault.
	Targets []int `json:"targets"`
	// Unreachable, for a core fault, says why no scenario run through a
	// host can reach it (its unit specs catch it); it has no targets.
	Unreachable string `json:"unreachable,omitempty"`
}

// flag is the certify flag that switches the fault on.
func (f Fault) flag() string {
	if f.Kind == KindCore {
		return "--core-fault"
	}
	return "--mutant"
}

// args are the certify arguments that serve the fault.
func (f Fault) args() []string {
	if f.Kind == KindControl {
		return []string{"--host", f.Name}
	}
	return []string{"--host", "reference", f.flag(), f.Name}
}

// Faults returns every mutant and core fault with its targets, mutants
// first, each kind sorted by name.
func Faults() []Fault {
	var out []Fault
	for _, m := range mutants.All() {
		out = append(out, Fault{Name: m.Name, Kind: KindMutant, Description: m.Description, Breaks: m.Guarantee, Sentences: m.Sentences(), Targets: slices.Clone(mutantTargets[m.Name])})
	}
	return append(append(out, coreFaults()...), controls()...)
}

// A FaultResult is one row of the kill matrix: the fault and what its
// certification found.
type FaultResult struct {
	Fault
	reports.KillOutcome
}

// A Result is the self-test's document.
type Result struct {
	SchemaVersion string `json:"schemaVersion"`
	Harness       string `json:"harness"`
	MatrixVersion string `json:"matrixVersion"`
	// Reference is the reference host's certification.
	Reference *reports.Document    `json:"reference"`
	Faults    []FaultResult        `json:"faults"`
	Items     []reports.KillColumn `json:"items"`
	// Unchecked are the guarantee sentences no runnable item checks,
	// leaving out those explicitly uncheckable through the protocol.
	Unchecked []matrix.Guarantee `json:"unchecked"`
	// Variants are the acceptance matrix: each permitted variation of the
	// reference host certified against every runnable item.
	Variants []VariantResult `json:"variants"`
	Passed   bool            `json:"passed"`
	// Interrupted is true when a signal or the run's bound stopped the
	// self-test: faults not certified by then have status "error".
	Interrupted bool `json:"interrupted,omitempty"`
	// Problems say why the self-test did not pass, one line each.
	Problems []string `json:"problems"`
}

// SchemaVersion is the version of Result's shape.
const SchemaVersion = "1"

// Options configure a self-test.
type Options struct {
	// Exe is the conform executable that runs each certification.
	Exe string
	// Faults, when not empty, limits the run to these fault and variant
	// names.
	Faults []string
	// Items, when not empty, limits the run to these items: the reference
	// host is certified on them, and faults only against them.
	Items []int
	// Parallel is the number of certifications run at once; < 1 means 1.
	Parallel int
	// Out receives one line per finished certification; nil discards.
	Out io.Writer
}

// Run runs the self-test. The error is for what stops it from running at
// all: an unknown fault name, an executable that cannot start, a canceled
// ctx.
func Run(ctx context.Context, opts Options) (*Result, error) {
	faults, err := selectFaults(opts.Faults)
	if err != nil {
		return nil, err
	}
	runnable := map[int]matrix.Item{}
	for _, it := range matrix.Items() {
		if it.Runnable && (len(opts.Items) == 0 || slices.Contains(opts.Items, it.ID)) {
			runnable[it.ID] = it
		}
	}
	if len(runnable) == 0 {
		return nil, fmt.Errorf("no runnable item selected (see `conform matrix`)")
	}
	var only []string
	if len(opts.Items) > 0 {
		only = []string{"--only", joinInts(slices.Sorted(maps.Keys(runnable)))}
	}
	dir, err := os.MkdirTemp("", "conform-selftest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := opts.Out
	if out == nil {
		out = io.Discard
	}
	res := &Result{SchemaVersion: SchemaVersion, Harness: reports.Version(), MatrixVersion: matrix.Version, Faults: []FaultResult{}, Items: []reports.KillColumn{}, Variants: []VariantResult{}, Problems: []string{}}

	ref, err := certify(ctx, opts.Exe, filepath.Join(dir, "reference.json"), append([]string{"--host", "reference"}, only...))
	if err != nil {
		return nil, fmt.Errorf("certifying the reference host: %w", err)
	}
	res.Reference = ref
	fmt.Fprintf(out, "reference host: %d passed, %d failed, %d not applicable\n", ref.Summary.Passed, ref.Summary.Failed, ref.Summary.NotApplicable)
	for _, it := range ref.Items {
		if it.Status == reports.Failed {
			res.Problems = append(res.Problems, fmt.Sprintf("the reference host fails item %s: %s", matrix.RefOf(it.ID), firstLine(it.Reason)))
		}
	}

	res.Faults = make([]FaultResult, len(faults))
	var wg sync.WaitGroup
	var mu sync.Mutex
	sem := make(chan struct{}, max(opts.Parallel, 1))
	for i, f := range faults {
		fr := FaultResult{Fault: f, KillOutcome: reports.KillOutcome{Ran: []int{}, FailedItems: []int{}, KilledBy: []int{}, Collateral: []reports.CollateralItem{}}}
		for _, id := range f.Targets {
			if _, ok := runnable[id]; ok {
				fr.Ran = append(fr.Ran, id)
			}
		}
		if len(fr.Ran) == 0 {
			fr.Status = Untargeted
			res.Faults[i] = fr
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				fr.Status, fr.Error = Broken, ctx.Err().Error()
				res.Faults[i] = fr
				return
			}
			defer func() { <-sem }()
			doc, err := certify(ctx, opts.Exe, filepath.Join(dir, f.Kind+"-"+f.Name+".json"), append(f.args(), "--only", joinInts(fr.Ran)))
			switch {
			case err != nil:
				fr.Status, fr.Error = Broken, err.Error()
			default:
				fr.attribute(doc)
			}
			mu.Lock()
			res.Faults[i] = fr
			fmt.Fprintf(out, "%-8s %-6s %-32s items %s → %s\n", fr.Status, f.Kind, f.Name, joinRefs(fr.Ran), failedText(fr))
			mu.Unlock()
		}()
	}
	wg.Wait()
	if ctx.Err() == nil {
		res.Variants = certifyVariants(ctx, opts.Exe, dir, selectVariants(opts.Faults), slices.Sorted(maps.Keys(runnable)), opts.Parallel, out)
	}
	if err := ctx.Err(); err != nil {
		for i := range res.Faults {
			if res.Faults[i].Status == "" {
				res.Faults[i].Status, res.Faults[i].Error = Broken, "not certified: "+context.Cause(ctx).Error()
			}
		}
		res.Interrupted = true
		return res, err
	}
	res.Items = itemResults(runnable, res.Faults)
	res.Unchecked = unchecked()
	for _, fr := range res.Faults {
		if fr.Kind == KindControl {
			res.Problems = append(res.Problems, controlProblems(fr)...)
			continue
		}
		switch fr.Status {
		case Collateral:
			res.Problems = append(res.Problems, fmt.Sprintf("%s %s is not killed: items %s fail against it, none on an assertion of %s (%s)", fr.Kind, fr.Name, joinRefs(fr.FailedItems), strings.Join(fr.Sentences, ", "), collateralText(fr.Collateral)))
		case Survived:
			res.Problems = append(res.Problems, fmt.Sprintf("%s %s survives items %s", fr.Kind, fr.Name, joinRefs(fr.Ran)))
		case Broken:
			res.Problems = append(res.Problems, fmt.Sprintf("%s %s could not be certified: %s", fr.Kind, fr.Name, fr.Error))
		}
	}
	res.Problems = append(res.Problems, variantProblems(res.Variants)...)
	for _, ir := range res.Items {
		if ir.CannotFail != "" {
			res.Problems = append(res.Problems, fmt.Sprintf("item %s cannot fail: it kills no %s", matrix.RefOf(ir.ID), ir.CannotFail))
		}
	}
	res.Passed = len(res.Problems) == 0
	return res, nil
}

// selectFaults returns the faults named, or all of them.
func selectFaults(names []string) ([]Fault, error) {
	all := Faults()
	if len(names) == 0 {
		return all, nil
	}
	var out []Fault
	for _, n := range names {
		if isVariant(n) {
			continue
		}
		i := slices.IndexFunc(all, func(f Fault) bool { return f.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("unknown fault %q (see `conform selftest --list`)", n)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// itemResults says, for every runnable item, which faults it killed.
func itemResults(runnable map[int]matrix.Item, faults []FaultResult) []reports.KillColumn {
	ids := slices.Sorted(maps.Keys(runnable))
	out := make([]reports.KillColumn, 0, len(ids))
	for _, id := range ids {
		it := runnable[id]
		ir := reports.KillColumn{ID: id, Scope: it.Scope, Mutants: []string{}, CoreFaults: []string{}}
		for _, fr := range faults {
			if fr.Kind == KindControl || !slices.Contains(fr.KilledBy, id) {
				continue
			}
			if fr.Kind == KindCore {
				ir.CoreFaults = append(ir.CoreFaults, fr.Name)
			} else {
				ir.Mutants = append(ir.Mutants, fr.Name)
			}
		}
		var missing []string
		if it.HostScoped() && len(ir.Mutants) == 0 {
			missing = append(missing, "mutant of the reference host")
		}
		if it.CoreScoped() && len(ir.CoreFaults) == 0 {
			missing = append(missing, "core fault")
		}
		ir.CannotFail = strings.Join(missing, " and no ")
		out = append(out, ir)
	}
	return out
}

// unchecked lists the guarantee sentences no runnable item checks and
// that are not explicitly uncheckable through the protocol.
func unchecked() []matrix.Guarantee {
	out := []matrix.Guarantee{}
	for _, tr := range matrix.Traces() {
		if !tr.Checked() && tr.Uncheckable == nil {
			out = append(out, tr.Guarantee)
		}
	}
	return out
}

// certify runs `conform certify --host reference` with extra flags in a
// child process and returns its result document. Exit status 0 and 1 are
// results; anything else (an invocation error, a crash) is an error with
// the child's standard error.
func certify(ctx context.Context, exe, report string, extra []string) (*reports.Document, error) {
	args := append([]string{"certify", "--json-report", report}, extra...)
	cmd := exec.CommandContext(ctx, exe, args...)
	// A canceled self-test asks the child to stop as an interrupted
	// certification does (it kills its own hosts), and kills it only if
	// it has not exited within the grace.
	cmd.Cancel = func() error {
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = childGrace
	var stderr strings.Builder
	cmd.Stdout = io.Discard
	cmd.Stderr = &proc.Head{W: &stderr, N: 4 << 10}
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		return nil, fmt.Errorf("conform %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	b, err := os.ReadFile(report)
	if err != nil {
		return nil, fmt.Errorf("conform %s wrote no result document: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	var doc reports.Document
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("result document of conform %s: %v", strings.Join(args, " "), err)
	}
	return &doc, nil
}

// childGrace is how long a canceled child certification has to report and
// exit before it is killed.
const childGrace = 15 * time.Second

func joinInts(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	return strings.Join(s, ",")
}

// joinRefs lists items as people name them: "7,R2".
func joinRefs(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = matrix.RefOf(id)
	}
	return strings.Join(s, ",")
}

func failedText(fr FaultResult) string {
	switch fr.Status {
	case Killed:
		text := "killed by " + joinRefs(fr.KilledBy)
		if len(fr.Collateral) > 0 {
			text += "; collateral: " + collateralText(fr.Collateral)
		}
		return text
	case Collateral:
		return "collateral only: " + collateralText(fr.Collateral)
	case Broken, Untestable:
		return fr.Error
	}
	return "none failed"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
