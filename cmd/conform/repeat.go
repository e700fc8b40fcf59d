package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/galaxy-stack/conform/internal/redact"
	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix/repeat"
	"github.com/galaxy-stack/conform/matrix/runs"
)

// checkRepeat refuses what --repeat does not combine with.
func (f *runFlags) checkRepeat() error {
	switch {
	case f.repeat < 1:
		return usagef("run: --repeat must be 1 or more")
	case f.resumeAll:
		return f.checkResumeEverywhere()
	case f.repeat == 1:
		return nil
	case f.campaign != "":
		return usagef("run: --repeat runs fixtures, not a campaign")
	case f.keep:
		return usagef("run: --repeat keeps no workspace; leave out --keep")
	case f.reproDir != "":
		return usagef("run: --repeat writes no repros; run the failing fixture once with --repro-dir")
	case f.transcript != "" || *f.reports.json != "" || *f.reports.junit != "" || *f.reports.md != "" || *f.reports.html != "":
		return usagef("run: --repeat writes no reports or transcripts; run once with them to get those")
	}
	return nil
}

// runRepeat runs cfg's fixtures f.repeat times and prints the verdicts.
func runRepeat(j *job, cfg runs.Config, f *runFlags, out streams) error {
	var res *repeat.Result
	var err error
	j.await(func() { res, err = repeat.Run(j.ctx, repeat.Config{Run: cfg, Times: f.repeat}) })
	if stopped := j.interrupted(); stopped != nil {
		return stopped
	}
	if err != nil {
		return loadError(err)
	}
	if err := writeJSONOr(out.stdout, f.asJSON, res, func() { printRepeat(out.stdout, res) }); err != nil {
		return err
	}
	switch {
	case res.Stopped != nil:
		return res.Stopped
	case res.TimedOut != nil:
		return res.TimedOut
	case res.Nondeterministic > 0 || res.Flaky > 0 || res.Failed > 0:
		return errFailed
	}
	return nil
}

// printRepeat prints the surroundings, a verdict line per fixture and the
// divergence of each nondeterministic one.
func printRepeat(w io.Writer, res *repeat.Result) {
	safe := func(s string) string { return termsafe.Line(redact.String(s)) }
	for i, s := range res.Surroundings {
		fmt.Fprintf(w, "repetition %d: temp dir %s, TZ %s, env order %s, fixtures %s\n", i+1, s.TempDir, s.TZ, strings.Join(s.EnvOrder, " "), s.Order)
	}
	fmt.Fprintln(w)
	for _, s := range res.Scenarios {
		word := map[string]string{repeat.Deterministic: "DET ", repeat.Nondeterministic: "NDET", repeat.Flaky: "FLKY"}[s.Verdict]
		fmt.Fprintf(w, "%s  %s  %s  statuses %s", word, safe(s.File), s.Verdict, safe(strings.Join(s.Statuses, " ")))
		for _, p := range s.Passed {
			if !p {
				fmt.Fprint(w, "  (the oracle failed in some repetition)")
				break
			}
		}
		fmt.Fprintln(w)
		if s.Unreplayable != "" {
			fmt.Fprintf(w, "      not counted: it means nothing run alone (%s)\n", safe(s.Unreplayable))
		}
		if d := s.Divergence; d != nil {
			fmt.Fprintf(w, "      repetition %d first differs from repetition 1 at %s:\n", d.Repetition, d.Where)
			for _, line := range strings.Split(strings.TrimRight(d.Diff, "\n"), "\n") {
				fmt.Fprintf(w, "        %s\n", termsafe.String(redact.String(line)))
			}
		}
	}
	fmt.Fprintf(w, "\n%d fixtures, %d runs each: %d deterministic, %d nondeterministic, %d flaky", len(res.Scenarios), res.Times, res.Deterministic, res.Nondeterministic, res.Flaky)
	if res.Failed > 0 {
		fmt.Fprintf(w, "; %d failed their oracle at least once", res.Failed)
	}
	if res.Unreplayable > 0 {
		fmt.Fprintf(w, "; %d not counted (unreplayable alone)", res.Unreplayable)
	}
	fmt.Fprintln(w)
}
