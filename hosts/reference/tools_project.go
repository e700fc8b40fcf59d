package reference

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf16"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

func detectProject(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Path string `json:"path"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	if a.Path == "" {
		a.Path = "."
	}
	p, err := s.root.DetectProject(ctx, a.Path)
	if err != nil {
		return outcome{}, typed(err)
	}
	return outcome{Output: p, Summary: fmt.Sprintf("Detected %d manifest(s) and %d language(s).", len(p.Manifests), len(p.Languages)),
		Trust: "workspace", Effects: inspected(p.ProjectRoot)}, nil
}

// validationSummaryUnits caps a check's summary (LAB §19.1).
const validationSummaryUnits = 2000

// checkResult is one validation check (LAB §19.3), in the original key
// order.
type checkResult struct {
	Check    string `json:"check"`
	Status   string `json:"status"`
	Summary  string `json:"summary"`
	Command  string `json:"command,omitempty"`
	ExitCode *int   `json:"exitCode,omitempty"`
}

// validateProject is project.validate (LAB §19.3, §20.3): it runs only
// the project's declared scripts, through the package manager, in a
// deterministic environment, bracketed by workspace snapshots.
func validateProject(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Checks    []string `json:"checks"`
		Path      string   `json:"path"`
		TimeoutMs int64    `json:"timeoutMs"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	rel := normalizeProjectPath(a.Path)
	var checks []string
	seen := map[string]bool{}
	for _, ch := range a.Checks {
		if !seen[ch] {
			seen[ch] = true
			checks = append(checks, ch)
		}
	}
	before, err := s.baseline(ctx)
	if err != nil {
		return outcome{}, err
	}
	results, err := s.runChecks(ctx, c, rel, checks, a.TimeoutMs)
	if err != nil {
		return outcome{}, err
	}
	diff, err := s.observe(ctx, before)
	if err != nil {
		return outcome{}, err
	}
	passed, cancelled := len(results) > 0, false
	var validations []port.ValidationEntry
	for _, r := range results {
		if r.Status != "passed" && r.Status != "skipped" {
			passed = false
		}
		if r.Status == "cancelled" {
			cancelled = true
		}
		v := port.ValidationEntry{ID: s.validationID(r.Check, rel), Detail: r.Check + ": " + r.Summary, Scope: "workspace", Status: "failed"}
		switch r.Status {
		case "passed":
			v.Status = "passed"
		case "skipped":
			v.Status = "not_run"
		}
		if rel != "." {
			v.Scope, v.Paths = "paths", []string{rel}
		}
		validations = append(validations, v)
	}
	out := struct {
		Cancelled        bool                        `json:"cancelled"`
		Passed           bool                        `json:"passed"`
		Results          []checkResult               `json:"results"`
		DerivedMutations *workspace.DerivedMutations `json:"derivedMutations,omitempty"`
	}{cancelled, passed, results, diff.DerivedMutations()}
	eff := &port.Effects{Validations: validations}
	if len(diff.Observed) > 0 {
		eff.StateVersion = diff.StateVersion
		if len(diff.Writes) > 0 && !s.faults.ValidationWithoutWrites {
			eff.Writes = diff.Writes
		}
	}
	summary := "Project validation did not pass."
	if passed {
		summary = "Project validation passed."
	}
	return outcome{Output: out, Summary: summary, Trust: "external", Effects: eff}, nil
}

func normalizeProjectPath(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if p == "" {
		return "."
	}
	p = path.Clean(p)
	p = strings.TrimPrefix(p, "./")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return "."
	}
	return p
}

// scriptCommand returns the package-manager command that runs script.
func scriptCommand(pm, script string) string {
	switch pm {
	case "npm":
		return "npm run " + script
	case "yarn":
		return "yarn " + script
	case "pnpm":
		return "pnpm run " + script
	case "bun":
		return "bun run " + script
	}
	return ""
}

func (s *session) runChecks(ctx context.Context, c *call, rel string, checks []string, timeoutMs int64) ([]checkResult, error) {
	all := func(status, summary string) []checkResult {
		out := make([]checkResult, len(checks))
		for i, ch := range checks {
			out[i] = checkResult{Check: ch, Status: status, Summary: summary}
		}
		return out
	}
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return all("timed_out", "Run deadline elapsed before project detection."), nil
		}
		return all("cancelled", "Run canceled before project detection."), nil
	}
	project, err := s.root.DetectProject(ctx, rel)
	if err != nil {
		switch workspace.CodeOf(err) {
		case hosterr.Canceled:
			return all("cancelled", "Run canceled during project detection."), nil
		case hosterr.DeadlineExceeded:
			return all("timed_out", "Run deadline elapsed during project detection."), nil
		}
		return nil, typed(err)
	}
	results := make([]checkResult, 0, len(checks))
	for _, ch := range checks {
		if ctx.Err() != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				results = append(results, checkResult{Check: ch, Status: "timed_out", Summary: "Run deadline elapsed before check started."})
			} else {
				results = append(results, checkResult{Check: ch, Status: "cancelled", Summary: "Run canceled before check started."})
			}
			continue
		}
		_, declared := project.Commands[ch]
		cmdText := scriptCommand(project.PackageManager, ch)
		if !declared || cmdText == "" {
			results = append(results, checkResult{Check: ch, Status: "skipped", Summary: fmt.Sprintf("No '%s' script was detected.", ch)})
			continue
		}
		res, err := s.scriptRunner.Run(ctx, command.Request{
			Command: cmdText, Cwd: rel, TimeoutMs: timeoutMs, Deadline: c.deadline,
			Env: map[string]string{"PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"},
		})
		if err != nil {
			status := "failed"
			switch portCode(err) {
			case "CANCELED":
				status = "cancelled"
			case "DEADLINE_EXCEEDED":
				status = "timed_out"
			}
			results = append(results, checkResult{Check: ch, Status: status, Summary: portCode(err) + ": " + portMessage(err), Command: cmdText})
			continue
		}
		s.keepSpill(res)
		status := "failed"
		switch {
		case res.Status == command.StatusCanceled:
			status = "cancelled"
		case res.Status == command.StatusTimedOut:
			status = "timed_out"
		case res.ExitCode != nil && *res.ExitCode == 0:
			status = "passed"
		}
		status = s.ranAsPassed(status, res)
		status = s.statusFromOutput(status, res.Stdout+res.Stderr)
		status = s.statusFromOutputText(status, res.Stdout+res.Stderr)
		summary := diagnostic(res)
		if summary == "" {
			summary = ch + " " + status + "."
		}
		results = append(results, checkResult{Check: ch, Status: status, Summary: summary, Command: cmdText, ExitCode: res.ExitCode})
	}
	return results, nil
}

// diagnostic is a check's summary from its output (LAB §19.3 step 4).
func diagnostic(r command.Result) string {
	type stream struct {
		name, text string
		truncated  bool
	}
	var ss []stream
	for _, st := range []stream{{"stdout", strings.TrimSpace(r.Stdout), r.StdoutTruncated}, {"stderr", strings.TrimSpace(r.Stderr), r.StderrTruncated}} {
		if st.text != "" || st.truncated {
			ss = append(ss, st)
		}
	}
	switch {
	case len(ss) == 0:
		return ""
	case len(ss) == 1 && !ss[0].truncated:
		return lastUnits(ss[0].text, validationSummaryUnits)
	}
	labels := make([]string, len(ss))
	total := 0
	for i, st := range ss {
		labels[i] = "[" + st.name + "]\n"
		if st.truncated {
			labels[i] = "[" + st.name + " truncated]\n"
		}
		total += len(labels[i])
	}
	budget := max(1, (validationSummaryUnits-total-(len(ss)-1))/len(ss))
	parts := make([]string, len(ss))
	for i, st := range ss {
		parts[i] = labels[i] + lastUnits(st.text, budget)
	}
	return lastUnits(strings.Join(parts, "\n"), validationSummaryUnits)
}

// lastUnits returns the last n UTF-16 code units of s, never splitting a
// surrogate pair.
func lastUnits(s string, n int) string {
	rs := []rune(s)
	units := 0
	i := len(rs)
	for i > 0 {
		u := len(utf16.Encode(rs[i-1 : i]))
		if units+u > n {
			break
		}
		units += u
		i--
	}
	return string(rs[i:])
}
