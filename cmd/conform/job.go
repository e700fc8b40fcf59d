package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/runs"
)

// killHosts kills the process tree of every host conform started; tests
// may replace it.
var killHosts = hostproc.KillAll

// exit ends the process at a second signal.
var exit = os.Exit

// interruptGrace is how long a command waits, after the first signal, for
// the work in flight to wind down before it reports what finished.
const interruptGrace = 10 * time.Second

// DefaultRunTimeout is the default of --timeout: the bound of one whole
// certify or run command.
const DefaultRunTimeout = time.Hour

// An interruptedError means a signal stopped the command; main1 maps it to
// 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM.
type interruptedError struct{ sig syscall.Signal }

func (e *interruptedError) Error() string { return "interrupted by " + signalName(e.sig) }

func (e *interruptedError) exitStatus() int { return 128 + int(e.sig) }

// Interruption marks the error as a matrix.Interruption: the item running
// at the signal is skipped as interrupted, not failed.
func (e *interruptedError) Interruption() {}

var _ matrix.Interruption = (*interruptedError)(nil)

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// A runTimeoutError is the cause of a command that reached its --timeout.
type runTimeoutError struct{ d time.Duration }

func (e *runTimeoutError) Error() string {
	return "run timed out after " + shortDuration(e.d) + " (--timeout)"
}

// shortDuration writes d as time.Duration does, without zero trailing
// units: 10m rather than 10m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// A job is one long command — certify, run, and any later command that
// starts hosts — under conform's rules for signals, time and temporary
// files:
//
//   - the first SIGINT or SIGTERM ends ctx with an *interruptedError: the
//     command starts no new work, the host process trees are killed
//     (killHosts), and the command reports what finished, marked
//     interrupted, and returns the error (exit 130 or 143);
//   - a second signal kills the hosts again, removes the temporary
//     directory and exits at once with 128 + its number;
//   - the --timeout bound ends ctx with a *runTimeoutError;
//   - with a private temporary directory, every temporary directory of the
//     command is made inside one of its own (TMPDIR points there, for the
//     hosts too), and close removes it however the command ended.
type job struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	stderr io.Writer

	signals chan os.Signal
	done    chan struct{} // closed by close

	mu  sync.Mutex
	sig *interruptedError
	tmp tempDir
}

// addTimeoutFlag declares --timeout on fs.
func addTimeoutFlag(fs *flag.FlagSet) *time.Duration {
	return fs.Duration("timeout", DefaultRunTimeout, "bound the whole command to `DURATION`; 0 means no bound")
}

// startJob starts the rules of a job; timeout 0 means no bound. Call close
// when the command is done.
func startJob(timeout time.Duration, privateTemp bool, stderr io.Writer) (*job, error) {
	j := &job{stderr: stderr, signals: make(chan os.Signal, 2), done: make(chan struct{})}
	if privateTemp {
		t, err := newTempDir()
		if err != nil {
			return nil, err
		}
		j.tmp = t
	}
	var ctx context.Context
	ctx, j.cancel = context.WithCancelCause(context.Background())
	if timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, timeout, &runTimeoutError{timeout})
		go func() { <-j.done; stop() }()
	}
	j.ctx = ctx
	signal.Notify(j.signals, os.Interrupt, syscall.SIGTERM)
	go j.watch()
	return j, nil
}

func (j *job) watch() {
	first := true
	for {
		var s os.Signal
		select {
		case s = <-j.signals:
		case <-j.done:
			return
		}
		sig, _ := s.(syscall.Signal)
		if first {
			first = false
			ie := &interruptedError{sig}
			j.mu.Lock()
			j.sig = ie
			j.mu.Unlock()
			j.cancel(ie)
			fmt.Fprintf(j.stderr, "conform: %s: stopping and reporting what finished; signal again to exit at once\n", signalName(sig))
			killHosts()
			continue
		}
		killHosts()
		j.mu.Lock()
		j.tmp.remove()
		j.mu.Unlock()
		fmt.Fprintf(j.stderr, "conform: %s again: exiting at once\n", signalName(sig))
		exit(128 + int(sig))
		return
	}
}

// interrupted returns the signal that stopped the job, or nil.
func (j *job) interrupted() *interruptedError {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.sig
}

// timedOut returns the *runTimeoutError when --timeout ended the job.
func (j *job) timedOut() error {
	var te *runTimeoutError
	if errors.As(context.Cause(j.ctx), &te) {
		return te
	}
	return nil
}

// await runs f and returns when f has returned, or, after a signal, when f
// has not returned within interruptGrace.
func (j *job) await(f func()) { runs.Await(j.ctx, interruptGrace, f) }

// close stops watching for signals and removes the private temporary
// directory.
func (j *job) close() {
	signal.Stop(j.signals)
	close(j.done)
	j.cancel(nil)
	j.mu.Lock()
	defer j.mu.Unlock()
	j.tmp.remove()
}

// tempDir is a job's private temporary directory and the environment it
// replaced.
type tempDir struct {
	path string
	old  map[string]*string
}

// tempEnv names the variables os.TempDir reads.
func tempEnv() []string {
	if runtime.GOOS == "windows" {
		return []string{"TMP", "TEMP"}
	}
	return []string{"TMPDIR"}
}

func newTempDir() (tempDir, error) {
	p, err := os.MkdirTemp("", "conform-")
	if err != nil {
		return tempDir{}, fmt.Errorf("creating conform's temporary directory: %w", err)
	}
	t := tempDir{path: p, old: map[string]*string{}}
	for _, k := range tempEnv() {
		if v, ok := os.LookupEnv(k); ok {
			t.old[k] = &v
		} else {
			t.old[k] = nil
		}
		os.Setenv(k, p)
	}
	return t, nil
}

// remove restores the environment and removes the directory; it may be
// called more than once.
func (t *tempDir) remove() {
	if t.path == "" {
		return
	}
	for k, v := range t.old {
		if v == nil {
			os.Unsetenv(k)
		} else {
			os.Setenv(k, *v)
		}
	}
	os.RemoveAll(t.path)
	t.path = ""
}
