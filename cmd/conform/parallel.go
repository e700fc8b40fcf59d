package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/galaxy-stack/conform/internal/proc"
	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/shard"
	"github.com/galaxy-stack/conform/reports"
)

// scaleHelp is the part of `conform help certify` about --shard and
// --parallel.
const scaleHelp = `Scaling out: --shard i/n runs part i of n of the selected items (after
--only, --area and --skip), so that n jobs certify the matrix together and
conform report merge joins their result documents into the one a serial run
writes. The partition is deterministic: the items are balanced by their
costs, longest first, each to the part with the least total so far (ties to
the lower part). The costs are the item durations that --durations FILE (a
result document of an earlier run) recorded, or without it the table built
into conform (a serial run of the reference host, matrix/shard/costs.json);
an item without a recorded cost counts as the mean of the others. Items --skip names
are listed by part 1. A part that holds no item is an invocation error
(exit 2). --parallel N runs the items (of the shard, with --shard) in N
child conform processes on this machine, each with its own temporary
directory, workspaces and store directories and its own hosts, partitioned
the same way, and merges their documents into one; the per-item results
are those of a serial run, and the expectations, reports, certificate and
exit status are decided on the merged document.`

// scaleFlags are certify's --shard, --parallel and --durations.
type scaleFlags struct {
	shard     string
	parallel  int
	durations string
}

func addScaleFlags(fs *flag.FlagSet) *scaleFlags {
	s := &scaleFlags{}
	fs.StringVar(&s.shard, "shard", "", "run part `i/n` of the selected items (see below)")
	fs.IntVar(&s.parallel, "parallel", 1, "run the items in `N` child conform processes and merge their results")
	fs.StringVar(&s.durations, "durations", "", "balance --shard and --parallel by the item durations of the result document `FILE` instead of the built-in table")
	return s
}

// plan is what the scale flags make of a selection: the items this
// process runs (nil: cfg's own selection) and, with --parallel, the
// parts of its children.
type plan struct {
	only  []int
	parts [][]int
	// skip are the items skipped by request that this process lists.
	skip []int
}

// plan checks the scale flags against cfg and splits its selection.
func (s *scaleFlags) plan(cfg matrix.Config) (*plan, error) {
	if s.parallel < 1 {
		return nil, usagef("certify: --parallel must be at least 1")
	}
	if s.shard == "" && s.parallel == 1 {
		if s.durations != "" {
			return nil, usagef("certify: --durations balances --shard or --parallel; give one of them")
		}
		return nil, nil
	}
	costs, err := shard.Recorded()
	if err != nil {
		return nil, err
	}
	if s.durations != "" {
		docs, err := reports.ReadFile(s.durations, reports.DefaultMaxDocumentSize)
		if err != nil {
			return nil, usagef("certify: --durations: %s", termsafe.Line(err.Error()))
		}
		costs = shard.CostsOf(docs...)
	}
	ids, err := matrix.Selected(cfg)
	if err != nil {
		return nil, err
	}
	p := &plan{only: ids}
	// The items --skip names that a serial run lists as skipped: runnable
	// ones (a part's --only may name no planned item).
	for _, it := range matrix.Items() {
		if it.Runnable && slices.Contains(cfg.Skip, it.ID) {
			p.skip = append(p.skip, it.ID)
		}
	}
	if s.shard != "" {
		spec, err := shard.Parse(s.shard)
		if err != nil {
			return nil, usagef("certify: --shard %v", err)
		}
		p.only = shard.Partition(ids, spec.N, costs)[spec.I-1]
		if len(p.only) == 0 {
			return nil, usagef("certify: --shard %s holds no item: the selection has %d items; use fewer parts", spec, len(ids))
		}
		if spec.I > 1 {
			p.skip = nil
		}
	}
	if s.parallel > 1 {
		n := min(s.parallel, len(p.only))
		p.parts = shard.Partition(p.only, n, costs)
	}
	return p, nil
}

// withSkips is only with the items skipped by request, which --only must
// name for the document to list them.
func withSkips(only, skip []int) []int {
	out := slices.Clone(only)
	for _, id := range skip {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// runParallel runs the parts of p in child conform processes, forwarding
// their item lines to progress, and merges their result documents.
func runParallel(ctx context.Context, f *certifyFlags, p *plan, progress io.Writer) (*reports.Document, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("certify --parallel: cannot find the conform executable: %w", err)
	}
	// Under the job's private temporary directory: each child makes its
	// own inside it, so no two share one.
	dir, err := os.MkdirTemp("", "parallel-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex // serializes the forwarded lines
		errs = make([]error, len(p.parts))
	)
	files := make([]string, len(p.parts))
	for k, part := range p.parts {
		files[k] = filepath.Join(dir, "part"+strconv.Itoa(k+1)+".json")
		skip := []int(nil)
		if k == 0 {
			skip = p.skip
		}
		args := childArgs(f, withSkips(part, skip), skip, files[k])
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k] = runChild(ctx, exe, args, progress, &mu)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var inputs []reports.MergeInput
	for k, file := range files {
		docs, err := reports.ReadFile(file, reports.DefaultMaxDocumentSize)
		if err != nil {
			return nil, fmt.Errorf("certify --parallel: part %d: %w", k+1, err)
		}
		for _, d := range docs {
			inputs = append(inputs, reports.MergeInput{Name: fmt.Sprintf("part %d", k+1), Doc: d})
		}
	}
	m, err := reports.Merge(inputs)
	if err != nil {
		return nil, fmt.Errorf("certify --parallel: %w", err)
	}
	if len(m.Documents) != 1 {
		return nil, fmt.Errorf("certify --parallel: the parts describe %d different hosts; run without --parallel", len(m.Documents))
	}
	return m.Documents[0], nil
}

// childArgs are the arguments of the child certification of the items
// only: the host and its options as given, no report but the document.
func childArgs(f *certifyFlags, only, skip []int, report string) []string {
	args := []string{"certify", "--host", f.host, "--only", joinIDs(only), "--json-report", report,
		"--timeout", f.timeout.String(),
		"--max-read-size", strconv.FormatInt(f.caps.read, 10), "--max-snapshot-file-size", strconv.FormatInt(f.caps.snapshot, 10)}
	for _, x := range []struct{ flag, v string }{{"--mutant", f.mutant}, {"--variant", f.variant}, {"--core-fault", f.coreFault}, {"--area", f.area}} {
		if x.v != "" {
			args = append(args, x.flag, x.v)
		}
	}
	if len(skip) > 0 {
		args = append(args, "--skip", joinIDs(skip))
	}
	// A child's --json-report is in a temporary directory: its repros go
	// where the parent's would, or nowhere.
	repro := f.repro
	if repro == "" {
		repro = "-"
	}
	args = append(args, "--repro-dir", repro)
	for _, name := range *f.env {
		args = append(args, "--host-env", name)
	}
	return args
}

// joinIDs lists the references of items ids as --only and --skip take
// them: "1,13,R2".
func joinIDs(ids []int) string { return joinRefs(ids, ",") }

// childGrace is how long a child has, after the run is stopped, to report
// what finished before it is killed.
const childGrace = 20 * time.Second

// runChild runs one child certification. Exit status 0 and 1 are results,
// and so are 130 and 143 (a signal stopped it: its document says so);
// anything else is an error quoting the child's standard error.
func runChild(ctx context.Context, exe string, args []string, progress io.Writer, mu *sync.Mutex) error {
	cmd := exec.Command(exe, args...)
	var stderr strings.Builder
	cmd.Stderr = &proc.Head{W: &stderr, N: 4 << 10}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("certify --parallel: starting conform: %w", err)
	}
	exited := make(chan struct{})
	go func() {
		// A stopped run asks the child to stop as a signal would: a
		// terminal's SIGINT has reached it already, so it gets a moment
		// first; it is killed when it has not exited within childGrace.
		select {
		case <-exited:
			return
		case <-ctx.Done():
		}
		select {
		case <-exited:
			return
		case <-time.After(2 * time.Second):
			_ = cmd.Process.Signal(syscall.SIGTERM)
		}
		select {
		case <-exited:
		case <-time.After(childGrace):
			_ = cmd.Process.Kill()
		}
	}()
	forwardItems(out, progress, mu)
	err = cmd.Wait()
	close(exited)
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && slices.Contains([]int{1, 130, 143}, ee.ExitCode())) {
		return fmt.Errorf("conform %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// forwardItems copies a child's item lines — each item's line and the
// indented lines under it, as one block — to w until the blank line that
// starts the child's summary, and reads the rest without copying it. A
// block is copied when the next one starts or when the child has written
// nothing more for now (the child writes a block at once).
func forwardItems(r io.Reader, w io.Writer, mu *sync.Mutex) {
	br := bufio.NewReaderSize(r, 64<<10)
	var block []string
	flush := func() {
		if len(block) == 0 {
			return
		}
		mu.Lock()
		for _, l := range block {
			fmt.Fprintln(w, l)
		}
		mu.Unlock()
		block = block[:0]
	}
	for {
		line, err := br.ReadString('\n')
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if !strings.HasPrefix(line, "    ") {
			flush()
		}
		block = append(block, line)
		if err != nil {
			break
		}
		if br.Buffered() == 0 {
			flush()
		}
	}
	flush()
	_, _ = io.Copy(io.Discard, br)
}
