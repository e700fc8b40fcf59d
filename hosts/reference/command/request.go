package command

import (
	"maps"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// Limits of the command port (LAB_AND_HOSTS §11.1).
const (
	// DefaultTimeoutMs is the per-call timeout when a request sets none.
	DefaultTimeoutMs = 120000
	// DefaultMaxOutputBytes is the per-stream retention when a request sets none.
	DefaultMaxOutputBytes = 256 * 1024
	// MaxOutputBytes is the largest per-stream retention a request may ask for.
	MaxOutputBytes = 4 * 1024 * 1024
	// MaxCommandLength is the longest command string, in UTF-16 code units.
	MaxCommandLength = 32768
	// KillGrace is how long a process group has between SIGTERM and SIGKILL.
	KillGrace = 750 * time.Millisecond
)

// A Request is one command to run. The zero value of each optional field
// selects the port default.
type Request struct {
	// Command is the command string handed to the interpreter as one
	// argument. It must contain non-blank text and at most MaxCommandLength
	// UTF-16 code units.
	Command string
	// Cwd is the workspace-relative working directory ("" means "."). It is
	// resolved beneath the workspace root, following symlinks, and must be
	// an existing directory inside the root.
	Cwd string
	// Env holds environment overrides applied over the minimal child
	// environment. Names must match ^[A-Za-z_][A-Za-z0-9_]*$ and values
	// must not contain NUL.
	Env map[string]string
	// TimeoutMs is the per-call timeout in milliseconds; 0 means
	// DefaultTimeoutMs and a negative value is INVALID_INPUT.
	TimeoutMs int64
	// MaxOutputBytes is the per-stream retention in bytes, 1..MaxOutputBytes;
	// 0 means DefaultMaxOutputBytes.
	MaxOutputBytes int
	// Deadline is the run's absolute deadline; the zero time means none.
	// The effective timeout is the earlier of the two (and of the context's
	// deadline, if it has one).
	Deadline time.Time
	// SpillDir overrides the Runner's spill directory for this call.
	SpillDir string
}

// ExitStatus says how a command ended (CONTRACTS §13.5 CommandExitStatus).
type ExitStatus string

// The three exit statuses. A timed-out or canceled command is still a
// successful port result carrying that status.
const (
	StatusExited   ExitStatus = "exited"
	StatusTimedOut ExitStatus = "timed_out"
	StatusCanceled ExitStatus = "canceled"
)

// A Result is the port result of a command that ran (CONTRACTS §13.5,
// LAB_AND_HOSTS §11.2 step 11). The JSON fields and their order are the
// original port's; the fields tagged "-" are this host's additions.
type Result struct {
	Command string `json:"command"`
	// DurationMs is the wall-clock time from spawn to completion.
	DurationMs int64 `json:"durationMs"`
	// ExitCode is the interpreter's exit code, or nil when it was ended by
	// a signal.
	ExitCode *int       `json:"exitCode"`
	Status   ExitStatus `json:"status"`
	// Stdout and Stderr are the last MaxOutputBytes bytes of each stream,
	// decoded as UTF-8 with replacement characters and trimmed at the front
	// to whole code points within the byte bound.
	Stdout          string `json:"stdout"`
	Stderr          string `json:"stderr"`
	StdoutTruncated bool   `json:"stdoutTruncated"`
	StderrTruncated bool   `json:"stderrTruncated"`

	// StdoutBytes and StderrBytes count every byte each stream produced.
	StdoutBytes int64 `json:"-"`
	StderrBytes int64 `json:"-"`
	// StdoutSpill and StderrSpill are the files holding each complete
	// stream, or "" when no spill directory was configured. The caller
	// owns (and removes) them.
	StdoutSpill string `json:"-"`
	StderrSpill string `json:"-"`
	// SpillErr is the first error met while writing a spill file; the
	// retained text is complete regardless, but the spill file is not.
	SpillErr error `json:"-"`
	// Contained reports whether the command ran inside the verified
	// containment backend.
	Contained bool `json:"-"`
}

// envName is the rule for override names (LAB_AND_HOSTS §11.2 step 6).
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// inheritedEnv lists the host variables passed to commands when set.
var inheritedEnv = []string{"PATH", "LANG", "LC_ALL", "TERM", "TMPDIR", "TMP", "TEMP", "SystemRoot", "ComSpec", "PATHEXT"}

// validateCommand checks the command string (LAB_AND_HOSTS §11.2 step 2).
// A NUL byte cannot cross exec and is refused here as INVALID_INPUT.
func validateCommand(command string) error {
	blank := strings.TrimFunc(command, func(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' }) == ""
	if blank || canon.UTF16Len(command) > MaxCommandLength {
		return fail(hosterr.InvalidInput, msgCommandLength)
	}
	if strings.IndexByte(command, 0) >= 0 {
		return fail(hosterr.InvalidInput, "Command must not contain a null byte.")
	}
	return nil
}

// effectiveTimeout applies the per-call timeout and the absolute deadlines
// (LAB_AND_HOSTS §11.2 step 4). remaining ≤ 0 is DEADLINE_EXCEEDED.
func effectiveTimeout(req Request, now time.Time, ctxDeadline time.Time, hasCtxDeadline bool) (time.Duration, error) {
	deadline := req.Deadline
	if hasCtxDeadline && (deadline.IsZero() || ctxDeadline.Before(deadline)) {
		deadline = ctxDeadline
	}
	timeout := time.Duration(req.TimeoutMs) * time.Millisecond
	switch {
	case req.TimeoutMs == 0:
		timeout = DefaultTimeoutMs * time.Millisecond
	case req.TimeoutMs < 0:
		return 0, fail(hosterr.InvalidInput, msgTimeoutPositive)
	}
	if !deadline.IsZero() {
		remaining := deadline.Sub(now)
		if remaining <= 0 {
			return 0, fail(hosterr.DeadlineExceeded, msgDeadline)
		}
		timeout = min(timeout, remaining)
	}
	return timeout, nil
}

// outputLimit validates the per-stream retention (LAB_AND_HOSTS §11.2 step 5).
func outputLimit(n int) (int, error) {
	switch {
	case n == 0:
		return DefaultMaxOutputBytes, nil
	case n < 1 || n > MaxOutputBytes:
		return 0, fail(hosterr.InvalidInput, "maxOutputBytes must be between 1 and %d.", MaxOutputBytes)
	}
	return n, nil
}

// childEnv builds the minimal child environment (LAB_AND_HOSTS §11.2 step
// 6, DECISIONS 63): CI=1, FORCE_COLOR=0, the inherited variables that are
// set in host, then the overrides. HOME is never inherited. Overrides are
// checked in name order, so the first invalid name reported is
// deterministic.
func childEnv(host map[string]string, overrides map[string]string) (map[string]string, error) {
	env := map[string]string{"CI": "1", "FORCE_COLOR": "0"}
	for _, name := range inheritedEnv {
		if v, ok := lookupEnv(host, name); ok {
			env[name] = v
		}
	}
	for _, name := range slices.Sorted(maps.Keys(overrides)) {
		value := overrides[name]
		if !envName.MatchString(name) || strings.IndexByte(value, 0) >= 0 {
			return nil, fail(hosterr.InvalidInput, "Invalid environment entry '%s'.", name)
		}
		env[name] = value
	}
	return env, nil
}

// lookupEnv finds a host variable; names are case-insensitive on Windows,
// as they are for the host process there.
func lookupEnv(host map[string]string, name string) (string, bool) {
	if v, ok := host[name]; ok || runtime.GOOS != "windows" {
		return v, ok
	}
	for _, k := range slices.Sorted(maps.Keys(host)) {
		if strings.EqualFold(k, name) {
			return host[k], true
		}
	}
	return "", false
}

// envList renders env as sorted NAME=value entries for exec.
func envList(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for _, name := range slices.Sorted(maps.Keys(env)) {
		out = append(out, name+"="+env[name])
	}
	return out
}

// hostEnvMap parses os.Environ-style entries; the first entry for a name
// wins, as with os.Getenv.
func hostEnvMap(entries []string) map[string]string {
	m := make(map[string]string, len(entries))
	for _, kv := range entries {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if _, seen := m[name]; !seen {
			m[name] = value
		}
	}
	return m
}
