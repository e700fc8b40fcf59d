package reference

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/approval"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/projectformat"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/atomicfile"
)

// Bounds of one formatter run.
const (
	formatMaxOutputBytes = 512 << 10 // one candidate on stdout
	formatMaxStderrBytes = 4 << 10   // what a failure message quotes
	formatRunTimeout     = 20 * time.Second
)

// supportedExtensions are the extension flags the reference host supports.
var supportedExtensions = []string{catalog.FlagProjectFormat, catalog.FlagProjectFormatGo}

// negotiateExtensions keeps the offered flags the host supports, in the
// offered order.
func negotiateExtensions(offered []string) []string {
	var out []string
	for _, f := range offered {
		if slices.Contains(supportedExtensions, f) && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// formatFailure ends a job before any write: a known "nothing changed".
type formatFailure struct{ code, msg string }

func (e *formatFailure) Error() string { return e.msg }

// executeFormat runs one project.format call: plan, record the job,
// decide approval, generate every candidate, then commit the changed ones
// with guarded writes. A callId that already has a job is answered from
// the job and never run again.
func (s *session) executeFormat(ctx context.Context, p wire.ExecuteParams) (port.ToolResult, error) {
	desc := catalog.ProjectFormat()
	var args map[string]any
	if err := json.Unmarshal(p.Arguments, &args); err != nil || args == nil {
		return errorResult(desc.ID, p.CallID, &toolError{Code: "INVALID_TOOL_ARGUMENTS", Message: "arguments must be a JSON object"}, nil), nil
	}
	if err := s.validator.Validate(desc.InputSchema, args); err != nil {
		return errorResult(desc.ID, p.CallID, &toolError{Code: "INVALID_TOOL_ARGUMENTS", Message: violations(err)}, nil), nil
	}
	var a formatArgs
	if err := json.Unmarshal(p.Arguments, &a); err != nil {
		return errorResult(desc.ID, p.CallID, &toolError{Code: "INVALID_TOOL_ARGUMENTS", Message: err.Error()}, nil), nil
	}
	if !s.faults.Format.RetryMutatingJob {
		if old, ok, err := s.formatJobs.observe(p.CallID); err != nil {
			return port.ToolResult{}, wire.UnknownOutcomeError(desc.ID, "the job record cannot be read: "+err.Error())
		} else if ok {
			return s.projectJob(desc, old)
		}
	}
	ws, err := os.OpenRoot(s.root.Dir())
	if err != nil {
		return errorResult(desc.ID, p.CallID, &toolError{Code: "IO_ERROR", Message: err.Error()}, nil), nil
	}
	defer ws.Close()
	plan, err := s.planFormat(ws, a)
	if err != nil {
		var pe *planError
		if errors.As(err, &pe) {
			return errorResult(desc.ID, p.CallID, &toolError{Code: pe.code, Message: pe.msg}, nil), nil
		}
		return errorResult(desc.ID, p.CallID, &toolError{Code: "IO_ERROR", Message: err.Error()}, nil), nil
	}
	job, created, err := s.formatJobs.create(p.CallID)
	if err != nil {
		return errorResult(desc.ID, p.CallID, &toolError{Code: "IO_ERROR", Message: "the job cannot be recorded: " + err.Error()}, nil), nil
	}
	if !created && !s.faults.Format.RetryMutatingJob {
		return s.projectJob(desc, job)
	}
	job.Adapter, job.RecipeRoot = plan.adapter, plan.root
	for _, f := range plan.files {
		job.Files = append(job.Files, projectformat.FileReport{Path: f.rel, Outcome: projectformat.FileNotAttempted, StateChanged: projectformat.Unchanged})
	}
	c, ctx, cancel := newCall(ctx, p, desc, args)
	defer cancel()
	d := s.decide(ctx, c)
	if !d.Allowed {
		job = failJob(job, strings.ToUpper(string(d.Code)), d.Reason)
		if err := s.formatJobs.finish(job); err != nil {
			return port.ToolResult{}, wire.UnknownOutcomeError(desc.ID, "the job record cannot be saved: "+err.Error())
		}
		return denied(desc.ID, p.CallID, d), nil
	}
	approvalEffect := "not_required"
	if d.Code == approval.ApprovedByHost {
		approvalEffect = "granted"
	}
	job, writes := s.runFormat(ctx, ws, plan, job)
	if err := s.formatJobs.finishWith(job, s.faults.Format.ReportNotDurable); err != nil {
		if len(writes) > 0 && !s.faults.Format.LostReceiptAsFalse {
			return port.ToolResult{}, wire.UnknownOutcomeError(desc.ID, "the job's terminal report cannot be saved after a write: "+err.Error())
		}
	}
	res, err := s.projectJob(desc, job)
	if err == nil && res.OK {
		res.Effects.Approval = approvalEffect
		res.Effects.Writes = writes
	}
	if err == nil && !res.OK && s.faults.Format.FailureWriteEvidence {
		res.Effects, res.EffectsAuthority = &port.Effects{}, effects.AuthorityHost
		for _, f := range plan.files {
			h := workspace.HashPrefix + workspace.SHA256Hex(f.original)
			res.Effects.Writes = append(res.Effects.Writes, port.Write{Path: f.rel, BeforeKind: workspace.KindFile, BeforeHash: &h, AfterKind: workspace.KindFile, AfterHash: &h})
		}
	}
	return res, err
}

// projectJob projects a job record onto the call's result: a known outcome
// is ok, a failure before any write is an ordinary failure, and an unknown
// outcome is the unknown-outcome error.
func (s *session) projectJob(desc catalog.Descriptor, job projectformat.Job) (port.ToolResult, error) {
	switch {
	case job.Status == projectformat.StatusRunning:
		return port.ToolResult{}, wire.UnknownOutcomeError(desc.ID, fmt.Sprintf("job %s of call %s did not finish; its outcome is unknown and it is not run again: observe it with job/observe", job.JobID, job.CallID))
	case !job.StateChanged.Known():
		msg := "the outcome is unknown"
		if job.Failure != nil {
			msg = job.Failure.Code + ": " + job.Failure.Message
		}
		return port.ToolResult{}, wire.UnknownOutcomeError(desc.ID, fmt.Sprintf("job %s: %s; read the files before formatting again", job.JobID, msg))
	case job.Status == projectformat.StatusFailed:
		code, msg := "FORMATTER_FAILED", "the job failed"
		if job.Failure != nil {
			code, msg = job.Failure.Code, job.Failure.Message
		}
		return errorResult(desc.ID, job.CallID, &toolError{Code: code, Message: msg}, nil), nil
	}
	out := map[string]any{"jobId": job.JobID, "adapter": job.Adapter, "recipeRoot": job.RecipeRoot,
		"stateChanged": job.StateChanged, "files": job.Files}
	var outVal any
	b, _ := json.Marshal(out)
	_ = json.Unmarshal(b, &outVal)
	if err := s.validator.Validate(desc.OutputSchema, outVal); err != nil {
		return port.ToolResult{}, wire.UnknownOutcomeError(desc.ID, "the report does not satisfy the output schema: "+violations(err))
	}
	content, err := compactJSON(struct {
		JobID        string                     `json:"jobId"`
		Adapter      string                     `json:"adapter"`
		RecipeRoot   string                     `json:"recipeRoot"`
		StateChanged projectformat.StateChanged `json:"stateChanged"`
		Files        []projectformat.FileReport `json:"files"`
	}{job.JobID, job.Adapter, job.RecipeRoot, job.StateChanged, job.Files})
	if err != nil {
		return port.ToolResult{}, wire.UnknownOutcomeError(desc.ID, "the report does not encode: "+err.Error())
	}
	summary := fmt.Sprintf("Formatted %d file(s) under %s: stateChanged %s.", len(job.Files), job.RecipeRoot, string(job.StateChanged))
	return port.ToolResult{OK: true, CanonicalToolID: desc.ID, Content: content, Summary: summary, Trust: "trusted",
		Effects: &port.Effects{}, EffectsAuthority: effects.AuthorityHost}, nil
}

func failJob(job projectformat.Job, code, msg string) projectformat.Job {
	job.Status = projectformat.StatusFailed
	job.Failure = &projectformat.Failure{Code: code, Message: bounded(msg, 1000)}
	job.StateChanged = projectformat.Aggregate(job.Files)
	return job
}

func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// runFormat generates every candidate first (no write while any formatter
// may still fail), then revalidates the plan and commits each changed
// file with a guarded compare-and-write, at most one attempt per file.
// Anything that goes wrong after the first write makes the job unknown.
func (s *session) runFormat(ctx context.Context, ws *os.Root, plan *formatPlan, job projectformat.Job) (projectformat.Job, []port.Write) {
	files := plan.files
	if s.faults.Format.FormatUnselected {
		files = append(slices.Clone(files), s.unselectedFiles(ws, plan)...)
		for _, f := range files[len(plan.files):] {
			job.Files = append(job.Files, projectformat.FileReport{Path: f.rel, Outcome: projectformat.FileNotAttempted, StateChanged: projectformat.Unchanged})
		}
	}
	candidates := make([][]byte, len(files))
	for i, f := range files {
		out, err := s.runFormatter(ctx, plan, f)
		if err != nil {
			var ff *formatFailure
			if !errors.As(err, &ff) {
				ff = &formatFailure{code: "FORMATTER_FAILED", msg: err.Error()}
			}
			if s.faults.Format.UnavailableAsNoop && ff.code == "UNAVAILABLE" {
				candidates[i] = f.original
				continue
			}
			if s.faults.Format.TestCountFailures {
				ff = &formatFailure{code: ff.code, msg: "0 tests passed, 1 failed: " + ff.msg}
			}
			if s.faults.Format.SuccessOnPartialFailure || i >= len(plan.files) {
				candidates[i] = f.original // the failed file is skipped, the others still written
				continue
			}
			job.Files[i].Outcome = projectformat.FileFailed
			if s.faults.Format.FormatterWritesInPlace {
				job.Files[i].Outcome, job.Files[i].StateChanged = projectformat.FileUnknown, projectformat.Unknown
			}
			return failJob(job, ff.code, ff.msg), nil
		}
		candidates[i] = out
	}
	var writes []port.Write
	started := false
	stop := func(code, msg string) (projectformat.Job, []port.Write) {
		job = failJob(job, code, msg)
		if started && !s.faults.Format.SuccessOnPartialFailure {
			job.StateChanged = projectformat.Unknown
		}
		if s.faults.Format.SuccessOnPartialFailure && started {
			job.Status, job.Failure, job.StateChanged = projectformat.StatusSucceeded, nil, projectformat.Changed
		}
		return job, writes
	}
	for i, f := range files {
		if bytes.Equal(candidates[i], f.original) && !s.faults.Format.RewriteIdentical {
			job.Files[i].Outcome, job.Files[i].StateChanged = projectformat.FileUnchanged, projectformat.Unchanged
			continue
		}
		if err := ctx.Err(); err != nil {
			return stop(portCode(err), "the job was stopped before writing "+f.rel)
		}
		if err := s.revalidate(ws, plan, f); err != nil && !s.faults.Format.WriteWithoutCompare {
			job.Files[i].Outcome = projectformat.FileFailed
			return stop("PRECONDITION_FAILED", err.Error())
		}
		started = true
		job.Files[i].Outcome, job.Files[i].StateChanged = projectformat.FileUnknown, projectformat.Unknown
		if err := atomicfile.WriteFileIn(ws, f.rel, candidates[i], s.modeOf(ws, f.rel)); err != nil {
			return stop("IO_ERROR", "writing "+f.rel+": "+err.Error())
		}
		got, err := readBounded(ws, f.rel, formatMaxOutputBytes)
		if err != nil || !bytes.Equal(got, candidates[i]) {
			return stop("CONFLICT", f.rel+" does not hold the formatted text after the write")
		}
		job.Files[i].Outcome, job.Files[i].StateChanged = projectformat.FileWritten, projectformat.Changed
		before := workspace.HashPrefix + workspace.SHA256Hex(f.original)
		after := workspace.HashPrefix + workspace.SHA256Hex(candidates[i])
		writes = append(writes, port.Write{Path: f.rel, BeforeKind: workspace.KindFile, BeforeHash: &before, AfterKind: workspace.KindFile, AfterHash: &after})
	}
	job.Status = projectformat.StatusSucceeded
	job.StateChanged = projectformat.Aggregate(job.Files)
	return job, writes
}

// revalidate checks, immediately before a write, that the plan's context
// still holds (recipe root and manifest bytes) and that f is still the
// regular file, at the same real path, with the bytes the formatter read.
func (s *session) revalidate(ws *os.Root, plan *formatPlan, f plannedFile) error {
	manifest, err := readBounded(ws, path.Join(plan.root, recipeMarkers[plan.adapter]), formatMaxManifestBytes)
	if err != nil || !bytes.Equal(manifest, plan.manifest) {
		return fmt.Errorf("the recipe manifest %s changed after planning; no further file is written", path.Join(plan.root, recipeMarkers[plan.adapter]))
	}
	if root, err := recipeRoot(ws, path.Dir(f.rel), plan.adapter); err != nil || (root != plan.root && !s.faults.Format.AcceptCrossRoot) {
		return fmt.Errorf("the recipe root of %s changed after planning", f.rel)
	}
	if !s.faults.Format.AcceptSymlinkTarget {
		fi, err := ws.Lstat(f.rel)
		if err != nil || !fi.Mode().IsRegular() {
			return fmt.Errorf("%s is no longer a regular file", f.rel)
		}
		abs := filepath.Join(s.root.Dir(), filepath.FromSlash(f.rel))
		if real, err := filepath.EvalSymlinks(abs); err != nil || real != abs {
			return fmt.Errorf("%s no longer resolves to itself", f.rel)
		}
	}
	cur, err := readBounded(ws, f.rel, formatMaxFileBytes)
	if err != nil || !bytes.Equal(cur, f.original) {
		return fmt.Errorf("%s changed after the formatter read it; it is not written", f.rel)
	}
	return nil
}

func (s *session) modeOf(ws *os.Root, rel string) os.FileMode {
	if fi, err := ws.Lstat(rel); err == nil {
		return fi.Mode().Perm()
	}
	return 0o644
}

// runFormatter runs the adapter's installed formatter with the file on
// stdin and returns its candidate from stdout. It never names the file to
// the formatter, so the formatter cannot edit it.
func (s *session) runFormatter(ctx context.Context, plan *formatPlan, f plannedFile) ([]byte, error) {
	var name string
	var args []string
	switch plan.adapter {
	case catalog.AdapterGo:
		name = "gofmt"
	case catalog.AdapterRust:
		name, args = "rustfmt", []string{"--emit=stdout", "--edition", plan.edition, "--config", "skip_children=true"}
	case catalog.AdapterPython:
		name = "python3"
		args = []string{"-I", "-B", "-m", "ruff", "format", "--no-cache", "--config", "pyproject.toml", "--stdin-filename", path.Base(f.rel), "-"}
	}
	exe, err := exec.LookPath(name)
	if err != nil {
		return nil, &formatFailure{code: "UNAVAILABLE", msg: fmt.Sprintf("%s is not installed on the host's PATH; install it or format %s otherwise (nothing is installed and there is no fallback)", name, f.rel)}
	}
	dir := filepath.Join(s.root.Dir(), filepath.FromSlash(plan.root))
	if s.faults.Format.FormatterWritesInPlace && plan.adapter == catalog.AdapterGo {
		abs := filepath.Join(s.root.Dir(), filepath.FromSlash(f.rel))
		if err := exec.CommandContext(ctx, exe, "-w", abs).Run(); err != nil {
			return nil, &formatFailure{code: "FORMATTER_FAILED", msg: err.Error()}
		}
		return f.original, nil // the file was already rewritten: nothing is left to write
	}
	rctx, cancel := context.WithTimeout(ctx, formatRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(rctx, exe, args...)
	cmd.Dir = dir
	cmd.Env = formatterEnv()
	cmd.Stdin = bytes.NewReader(f.original)
	stdout := &cappedBuffer{max: formatMaxOutputBytes}
	stderr := &cappedBuffer{max: formatMaxStderrBytes}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	switch {
	case ctx.Err() != nil:
		return nil, &formatFailure{code: portCode(ctx.Err()), msg: "the job was stopped while " + name + " formatted " + f.rel}
	case rctx.Err() != nil:
		return nil, &formatFailure{code: "DEADLINE_EXCEEDED", msg: name + " did not finish " + f.rel + " in time"}
	case stdout.over:
		return nil, &formatFailure{code: "LIMIT_EXCEEDED", msg: fmt.Sprintf("%s wrote more than %d bytes for %s; nothing is written", name, formatMaxOutputBytes, f.rel)}
	case err != nil:
		if plan.adapter == catalog.AdapterPython && strings.Contains(stderr.String(), "No module named ruff") {
			return nil, &formatFailure{code: "UNAVAILABLE", msg: "ruff is not installed for " + exe + "; Python formatting is unavailable (nothing is installed and there is no fallback)"}
		}
		return nil, &formatFailure{code: "FORMATTER_FAILED", msg: fmt.Sprintf("%s failed on %s: %v: %s", name, f.rel, err, bounded(strings.TrimSpace(stderr.String()), 1000))}
	}
	return stdout.Bytes(), nil
}

// formatterEnv is the host's environment without the variables that
// redirect a formatter's configuration, cache or output.
func formatterEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "RUFF_") || strings.HasPrefix(name, "PYTHON") || name == "GOFLAGS" || strings.HasPrefix(name, "RUSTFMT") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// cappedBuffer keeps at most max bytes and remembers that more came.
type cappedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// unselectedFiles are the other files of the recipe root with the
// adapter's extension: what the FormatUnselected fault formats too.
func (s *session) unselectedFiles(ws *os.Root, plan *formatPlan) []plannedFile {
	var out []plannedFile
	entries, err := os.ReadDir(filepath.Join(s.root.Dir(), filepath.FromSlash(plan.root)))
	if err != nil {
		return nil
	}
	for _, e := range entries {
		rel := path.Join(plan.root, e.Name())
		if !e.Type().IsRegular() || projectformat.AdapterFor(path.Ext(rel)) != plan.adapter {
			continue
		}
		if slices.ContainsFunc(plan.files, func(f plannedFile) bool { return f.rel == rel }) {
			continue
		}
		if data, err := readBounded(ws, rel, formatMaxFileBytes); err == nil {
			out = append(out, plannedFile{rel: rel, original: data})
		}
	}
	return out
}

// observeJob answers job/observe from the durable job store.
func (s *session) observeJob(ctx context.Context, p wire.JobObserveParams) (wire.JobObserveResult, error) {
	if p.CallID == "" {
		return wire.JobObserveResult{}, invalidParams("callId is required")
	}
	job, ok, err := s.formatJobs.observe(p.CallID)
	if err != nil {
		return wire.JobObserveResult{}, &wire.Error{Code: wire.ErrInternal.Code, Message: "the job record cannot be read: " + err.Error()}
	}
	if !ok {
		return wire.JobObserveResult{}, nil
	}
	if job.Status == projectformat.StatusRunning && !s.formatJobs.isLive(p.CallID) && s.faults.Format.LostReceiptAsFalse {
		job.StateChanged = projectformat.Unchanged
	}
	return wire.JobObserveResult{Job: &job}, nil
}
