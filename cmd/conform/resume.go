package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/galaxy-stack/conform/internal/redact"
	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix/resume"
	"github.com/galaxy-stack/conform/matrix/runs"
)

// checkResumeEverywhere refuses what --resume-everywhere does not combine
// with.
func (f *runFlags) checkResumeEverywhere() error {
	switch {
	case f.repeat > 1:
		return usagef("run: --resume-everywhere and --repeat exclude each other")
	case f.campaign != "":
		return usagef("run: --resume-everywhere runs fixtures, not a campaign")
	case f.keep || f.task != "":
		return usagef("run: --resume-everywhere takes no --keep or --task")
	case f.reproDir != "" || f.transcript != "" || *f.reports.json != "" || *f.reports.junit != "" || *f.reports.md != "" || *f.reports.html != "":
		return usagef("run: --resume-everywhere writes no reports, transcripts or repros")
	}
	return nil
}

// runResumeEverywhere checks every fixture of cfg and prints each step.
func runResumeEverywhere(j *job, cfg runs.Config, f *runFlags, out streams) error {
	var all []*resume.Result
	var err error
	j.await(func() {
		for _, p := range cfg.Paths {
			var r *resume.Result
			r, err = resume.Run(j.ctx, resume.Config{Path: p, Argv: cfg.Argv, HostEnv: cfg.HostEnv, AllowUncontained: cfg.AllowUncontained})
			if err != nil {
				return
			}
			all = append(all, r)
		}
	})
	if stopped := j.interrupted(); stopped != nil {
		return stopped
	}
	if te := j.timedOut(); te != nil {
		return te
	}
	if err != nil {
		return loadError(err)
	}
	failed := 0
	for _, r := range all {
		failed += r.Failed
	}
	err = writeJSONOr(out.stdout, f.asJSON, all, func() {
		for _, r := range all {
			printResume(out.stdout, r)
		}
	})
	if err != nil {
		return err
	}
	if failed > 0 {
		return errFailed
	}
	return nil
}

func printResume(w io.Writer, r *resume.Result) {
	safe := func(s string) string { return termsafe.Line(redact.String(s)) }
	status := func(s string, code *string) string {
		if code != nil {
			s += " " + *code
		}
		return safe(s)
	}
	fmt.Fprintf(w, "%s: uninterrupted %s, outcome %s\n", safe(r.File), status(r.Status, r.ErrorCode), short(r.OutcomeHash))
	rule := ""
	for _, s := range r.Steps {
		what := fmt.Sprintf("after tool result %d", s.Occurrence)
		if s.Event == "model" {
			what = fmt.Sprintf("during the model round ending at model event %d", s.Occurrence)
		}
		switch {
		case s.NotResumable != "":
			fmt.Fprintf(w, "  N/R   %s: not resumable (below)\n", what)
			rule = s.NotResumable
		case !s.Paused:
			fmt.Fprintf(w, "  --    %s: the run ended before the pause\n", what)
		case s.Passed:
			fmt.Fprintf(w, "  PASS  %s: resumed to %s, outcome %s\n", what, status(s.Status, s.ErrorCode), short(s.OutcomeHash))
		default:
			fmt.Fprintf(w, "  FAIL  %s: resumed to %s, outcome %s\n", what, status(s.Status, s.ErrorCode), short(s.OutcomeHash))
			if len(s.RanTwice) > 0 {
				fmt.Fprintf(w, "        sent to the host more than once: %s\n", safe(strings.Join(s.RanTwice, ", ")))
			}
			if s.Diff != "" {
				fmt.Fprintln(w, "        outcome diff (- uninterrupted, + resumed):")
				for _, line := range strings.Split(strings.TrimRight(s.Diff, "\n"), "\n") {
					fmt.Fprintf(w, "          %s\n", termsafe.String(redact.String(line)))
				}
			}
		}
	}
	if rule != "" {
		fmt.Fprintf(w, "  not resumable: %s\n", rule)
	}
	fmt.Fprintf(w, "%d steps: %d passed, %d failed, %d not resumable, %d not paused\n\n", len(r.Steps), r.Passed, r.Failed, r.NotResumable, r.NotPaused)
}
