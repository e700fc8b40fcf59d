package reference

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/port"
)

// maxUntrackedDiffs bounds the untracked files a diff shows (LAB §20.3).
const maxUntrackedDiffs = 256

// gitRun is one finished git command.
type gitRun struct {
	stdout, stderr string
	truncated      bool
	exitCode       int
}

// runGit runs the git executable directly (no shell) in the workspace with
// the neutralised configuration of gitneutral.go (drivers are the filter
// drivers to empty, from [filterDriversIn]) and argv; paths are always
// passed after "--", as data. GIT_OPTIONAL_LOCKS=0 keeps status from
// refreshing the index, so git.exec never mutates the repository.
func (s *session) runGit(ctx context.Context, limit int, drivers []string, args ...string) (gitRun, error) {
	root := s.root.Dir()
	argv := append(neutralGitArgs(drivers), args...)
	cmd := exec.CommandContext(ctx, s.git, argv...)
	if s.faults.GitThroughShell {
		cmd = exec.CommandContext(ctx, "/bin/sh", "-c", gitShellLine(s.git, neutralGitArgs(drivers), args))
	}
	cmd.Dir = root
	cmd.Env = s.gitCommandEnv()
	var out, errb boundedBuffer
	out.max, errb.max = limit, limit
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := gitRun{stdout: out.String(), stderr: errb.String(), truncated: out.over || errb.over}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ctx.Err() == nil:
		r.exitCode = ee.ExitCode()
	default:
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
		return r, err
	}
	return r, nil
}

// gitCommandEnv is the environment of every git.exec command.
func (s *session) gitCommandEnv() []string {
	if s.faults.GitGlobPathspecs {
		return append(gitEnv(s.root.Dir()), "GIT_PAGER=cat", "LC_ALL=C")
	}
	return append(gitEnv(s.root.Dir()), "GIT_LITERAL_PATHSPECS=1", "GIT_PAGER=cat", "LC_ALL=C")
}

// boundedBuffer keeps the first max bytes written to it.
type boundedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room < len(p) {
		b.over = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

func gitFailed(args []string, r gitRun) error {
	msg := strings.TrimSpace(r.stderr)
	if msg == "" {
		msg = strings.TrimSpace(r.stdout)
	}
	if msg == "" {
		msg = fmt.Sprintf("git %s ended with exited/%d.", strings.Join(args, " "), r.exitCode)
	}
	return &toolError{Code: "GIT_COMMAND_FAILED", Message: msg}
}

// execGit is git.exec (LAB §20.3): status, diff or log, read-only, with
// paths as data after "--". A complete, untruncated diff carries
// diffReview evidence.
func execGit(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Action string   `json:"action"`
		Paths  []string `json:"paths"`
		Limit  int      `json:"limit"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	if a.Paths == nil {
		a.Paths = []string{}
	}
	limit := a.Limit
	if limit <= 0 {
		limit = 50
	}
	maxBytes := c.desc.MaxOutputBytes
	suffix := []string{}
	if len(a.Paths) > 0 {
		suffix = append([]string{"--"}, a.Paths...)
		if s.faults.GitPathsAsOptions {
			suffix = suffix[1:]
		}
	}
	var stdout, stderr []string
	truncated := false
	drivers := filterDriversIn(ctx, s.git, s.root.Dir(), s.gitCommandEnv())
	run := func(args ...string) (gitRun, error) {
		r, err := s.runGit(ctx, maxBytes, drivers, args...)
		if err != nil {
			return r, typed(err)
		}
		if r.truncated {
			truncated = true
		}
		if e := strings.TrimSpace(r.stderr); e != "" {
			stderr = append(stderr, e)
		}
		return r, nil
	}
	switch a.Action {
	case "status", "log":
		args := []string{"status", "--short"}
		if a.Action == "log" {
			args = []string{"log", "--oneline", "--no-decorate", "-n", fmt.Sprint(limit)}
		}
		args = append(args, suffix...)
		r, err := run(args...)
		if err != nil {
			return outcome{}, err
		}
		if r.exitCode != 0 {
			return outcome{}, gitFailed(args, r)
		}
		stdout = append(stdout, r.stdout)
	case "diff":
		sections := []struct {
			label string
			args  []string
		}{
			{"[working-tree]", append([]string{"diff", "--no-ext-diff", "--no-textconv", "--binary"}, suffix...)},
			{"[staged]", append([]string{"diff", "--cached", "--no-ext-diff", "--no-textconv", "--binary"}, suffix...)},
		}
		for _, sec := range sections {
			r, err := run(sec.args...)
			if err != nil {
				return outcome{}, err
			}
			if r.exitCode != 0 {
				return outcome{}, gitFailed(sec.args, r)
			}
			if r.stdout != "" {
				stdout = append(stdout, sec.label+"\n"+r.stdout)
			}
		}
		lsArgs := append([]string{"ls-files", "--others", "--exclude-standard", "-z"}, suffix...)
		r, err := run(lsArgs...)
		if err != nil {
			return outcome{}, err
		}
		if r.exitCode != 0 {
			return outcome{}, gitFailed(lsArgs, r)
		}
		var untracked []string
		if !r.truncated {
			for _, n := range strings.Split(r.stdout, "\x00") {
				if n != "" {
					untracked = append(untracked, n)
				}
			}
		}
		if len(untracked) > maxUntrackedDiffs {
			truncated = true
			untracked = untracked[:maxUntrackedDiffs]
		}
		for _, name := range untracked {
			args := []string{"diff", "--no-index", "--no-ext-diff", "--no-textconv", "--binary", "--", os.DevNull, name}
			r, err := run(args...)
			if err != nil {
				return outcome{}, err
			}
			if r.exitCode != 0 && r.exitCode != 1 {
				return outcome{}, gitFailed(args, r)
			}
			if r.stdout != "" {
				stdout = append(stdout, "[untracked]\n"+r.stdout)
			}
		}
	}
	type gitOutput struct {
		Action    string `json:"action"`
		Stdout    string `json:"stdout"`
		Stderr    string `json:"stderr"`
		ExitCode  int    `json:"exitCode"`
		Truncated bool   `json:"truncated"`
	}
	out := gitOutput{Action: a.Action, Stdout: strings.Join(stdout, "\n"), Stderr: strings.Join(stderr, "\n")}
	if text, err := compactJSON(out); err == nil && len(text) > maxBytes {
		truncated = true
	}
	out.Truncated = truncated
	paths := a.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	eff := &port.Effects{InspectedPaths: paths}
	if a.Action == "diff" && (!truncated || s.faults.DiffReviewWhenTruncated) {
		text, err := compactJSON(struct {
			Action string   `json:"action"`
			Paths  []string `json:"paths"`
			Stdout string   `json:"stdout"`
		}{a.Action, a.Paths, out.Stdout})
		if err != nil {
			return outcome{}, err
		}
		if s.faults.DiffHashCaptureTime {
			text += time.Now().Format(time.RFC3339Nano)
		}
		eff.DiffReview = &port.DiffReview{DiffHash: sha256Text(text)}
	}
	summary := fmt.Sprintf("Git %s exited with 0.", a.Action)
	if truncated {
		summary = fmt.Sprintf("Git %s exited with 0 and returned truncated output.", a.Action)
	}
	return outcome{Output: out, Summary: summary, Trust: "workspace", Effects: eff}, nil
}
