package reference

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

// runCommand is command.run (LAB §20.3): the command runs through the
// published interpreter, bracketed by workspace snapshots whose diff is the
// only source of write evidence; generated trees are reported as derived
// mutations.
func runCommand(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Command     string            `json:"command"`
		Cwd         string            `json:"cwd"`
		Env         map[string]string `json:"env"`
		TimeoutMs   int64             `json:"timeoutMs"`
		Description string            `json:"description"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	if a.Cwd == "" {
		a.Cwd = "."
	}
	before, err := s.baseline(ctx)
	if err != nil {
		return outcome{}, err
	}
	res, rerr := s.runner.Run(ctx, command.Request{Command: a.Command, Cwd: a.Cwd, Env: a.Env, TimeoutMs: a.TimeoutMs, Deadline: c.deadline})
	rerr = s.cwdRefusalFault(rerr)
	diff, err := s.observe(ctx, before)
	if err != nil {
		return outcome{}, err
	}
	derived := commandDerived(diff.DerivedMutations())
	if rerr != nil {
		var ce *hosterr.Error
		if len(diff.Observed) == 0 {
			return outcome{}, typedOrUnknown(rerr)
		}
		if !asCommandError(rerr, &ce) {
			return outcome{}, unknownf("the command failed (%v) and the workspace changed", rerr)
		}
		out := command.FailureOutput(a.Command, a.Cwd, ce)
		out.DerivedMutations = derived
		return outcome{Output: out, Summary: string(ce.Code) + ": " + ce.Message, Trust: "external", Effects: s.commandEffects(diff, command.StatusCanceled)}, nil
	}
	ref := s.keepSpill(res)
	if s.faults.DropSpill && ref != "" {
		for _, f := range []string{res.StdoutSpill, res.StderrSpill} {
			if f != "" {
				_ = os.Remove(f)
			}
		}
		ref = ""
	}
	if s.faults.MaskNonZeroExit && res.Status == command.StatusExited && res.ExitCode != nil && *res.ExitCode != 0 {
		zero := 0
		res.ExitCode = &zero
	}
	if err := s.exitFault(res); err != nil {
		return outcome{}, err
	}
	if s.faults.MergeCommandStreams {
		res.Stdout += res.Stderr
		res.Stderr = ""
	}
	out := res.ToolOutput(a.Cwd)
	out.DerivedMutations = derived
	o := outcome{Output: out, Summary: res.Summary(), Trust: "external", ArtifactRef: ref}
	if len(diff.Observed) > 0 {
		o.Effects = s.commandEffects(diff, res.Status)
	}
	o.Effects = s.outputValidation(o.Effects, res)
	return o, nil
}

// commandEffects are the effects of a command that changed the workspace:
// the snapshots' writes, whether or not the command exited on its own.
func (s *session) commandEffects(diff workspace.Diff, status command.ExitStatus) *port.Effects {
	eff := s.writeEffects(diff, nil)
	if !s.commandWrites(status) {
		eff.Writes = nil
	}
	eff.Writes = s.createsOnly(eff.Writes)
	return eff
}

func asCommandError(err error, target **hosterr.Error) bool {
	ce, ok := err.(*hosterr.Error)
	if ok {
		*target = ce
	}
	return ok
}

// keepSpill keeps the spill files of a command whose output was truncated
// and returns a reference to them; complete outputs need no spill.
func (s *session) keepSpill(res command.Result) string {
	if !res.StdoutTruncated && !res.StderrTruncated {
		for _, f := range []string{res.StdoutSpill, res.StderrSpill} {
			if f != "" {
				_ = os.Remove(f)
			}
		}
		return ""
	}
	var names []string
	for _, f := range []string{res.StdoutSpill, res.StderrSpill} {
		if f != "" {
			names = append(names, filepath.Base(f))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "conform-spill://" + strings.Join(names, ",")
}

func commandDerived(d *workspace.DerivedMutations) *command.DerivedMutations {
	if d == nil {
		return nil
	}
	return &command.DerivedMutations{Count: d.Count, Paths: d.Paths, Truncated: d.Truncated}
}

var _ = port.Write{}
