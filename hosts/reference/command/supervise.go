package command

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"time"
)

// abandonAfter bounds how long output pipes may stay open after the
// process group got SIGKILL: a process that left the group (setsid) and
// still holds a pipe would otherwise keep the call open forever.
const abandonAfter = 2 * time.Second

// termOnlyAbandon is how long the TermWithoutKill fault reads output after
// its SIGTERM before it answers, whoever still holds the pipes.
const termOnlyAbandon = 100 * time.Millisecond

// A launch is one process to start: the resolved program, its argv (argv[0]
// included), working directory and complete environment.
type launch struct {
	path string
	argv []string
	dir  string
	env  []string
}

// A stream collects one output pipe: the bounded tail and, optionally, the
// complete bytes in a spill file.
type stream struct {
	tail      *tailBuffer
	spill     *os.File
	spillPath string
	spillErr  error
	// spillMax, when positive, is how many bytes the spill file keeps
	// (the TruncateSpill fault); 0 keeps them all.
	spillMax int64
	spilled  int64
	// keepOpen leaves the spill file open at EOF: the MergeSpill fault
	// shares one file between both streams, and the runner closes it.
	keepOpen bool
}

// drain copies r into the stream until EOF or error, then closes the spill
// file and done. It never stops reading early, so a command is never
// blocked on a full pipe.
func (s *stream) drain(r io.Reader, done chan<- struct{}) {
	defer close(done)
	buf := make([]byte, 64*1024)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			_, _ = s.tail.Write(buf[:n])
			if s.spill != nil && s.spillErr == nil {
				chunk := buf[:n]
				if s.spillMax > 0 {
					chunk = chunk[:min(int64(len(chunk)), max(0, s.spillMax-s.spilled))]
				}
				if _, werr := s.spill.Write(chunk); werr != nil {
					s.spillErr = werr
				}
				s.spilled += int64(len(chunk))
			}
		}
		if err != nil {
			break
		}
	}
	if s.spill != nil && !s.keepOpen {
		if err := s.spill.Close(); err != nil && s.spillErr == nil {
			s.spillErr = err
		}
	}
}

// An outcome is how a supervised process ended.
type outcome struct {
	exitCode *int
	status   ExitStatus
	duration time.Duration
}

// supervise runs l with stdin closed (the null device), stdout and stderr
// piped into out and errs, and no terminal. The timeout or ctx ending
// terminates the whole process group (SIGTERM, then SIGKILL after
// KillGrace) with status timed_out or canceled; a context that ended by
// its deadline counts as timed_out. supervise returns only when the child
// has exited, both pipes have closed and no member of its process group is
// left (survivors of a normal exit are terminated the same way).
//
// Faults change exactly what they name: IgnoreCancellation stops watching
// ctx, LeaveProcessGroup signals the interpreter alone and leaves
// survivors, StdinOpen gives the command an open pipe as stdin,
// TerminalStdin a pseudo-terminal, TermWithoutKill never follows SIGTERM
// with SIGKILL, and TimeoutSignalsChildOnly kills the interpreter alone at
// the timeout.
func supervise(ctx context.Context, l launch, timeout time.Duration, out, errs *stream, faults Faults) (outcome, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return outcome{}, spawnError(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return outcome{}, spawnError(err)
	}
	cmd := &exec.Cmd{
		Path:        l.path,
		Args:        l.argv,
		Dir:         l.dir,
		Env:         l.env,
		Stdout:      outW,
		Stderr:      errW,
		SysProcAttr: sysProcAttr(l.argv),
	}
	closePipes := func() {
		outR.Close()
		errR.Close()
		outW.Close()
		errW.Close()
	}
	if faults.StdinOpen {
		inR, inW, err := os.Pipe()
		if err != nil {
			closePipes()
			return outcome{}, spawnError(err)
		}
		cmd.Stdin = inR
		defer inW.Close()
		defer inR.Close()
	}
	if faults.TerminalStdin {
		term, closeTerm, err := openTerminal()
		if err != nil {
			closePipes()
			return outcome{}, spawnError(err)
		}
		cmd.Stdin = term
		defer closeTerm()
	}
	start := time.Now()
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return outcome{}, spawnError(err)
	}
	outDone, errDone, exited := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go out.drain(outR, outDone)
	go errs.drain(errR, errDone)
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	status := StatusExited
	terminating := false
	// childOnly is set when the TimeoutSignalsChildOnly fault killed the
	// interpreter alone at the timeout.
	childOnly := false
	var kill, abandon <-chan time.Time
	stop := func(s ExitStatus) {
		if terminating {
			return
		}
		terminating, status = true, s
		signalTree(cmd.Process, false, faults)
		if faults.TermWithoutKill {
			abandon = time.After(termOnlyAbandon)
			return
		}
		kill = time.After(KillGrace)
	}
	done := ctx.Done()
	if faults.IgnoreCancellation {
		done = nil
	}
	outC, errC, exitC := (<-chan struct{})(outDone), (<-chan struct{})(errDone), (<-chan struct{})(exited)
	for outC != nil || errC != nil || exitC != nil {
		select {
		case <-done:
			done = nil
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				stop(StatusTimedOut)
			} else {
				stop(StatusCanceled)
			}
		case <-timer.C:
			if faults.TimeoutSignalsChildOnly && !terminating {
				terminating, status, childOnly = true, StatusTimedOut, true
				_ = cmd.Process.Kill()
				abandon = time.After(abandonAfter)
				continue
			}
			stop(StatusTimedOut)
		case <-kill:
			kill = nil
			signalTree(cmd.Process, true, faults)
			abandon = time.After(abandonAfter)
		case <-abandon:
			abandon = nil
			outR.Close()
			errR.Close()
		case <-outC:
			outC = nil
		case <-errC:
			errC = nil
		case <-exitC:
			exitC = nil
		}
	}
	outR.Close()
	errR.Close()
	if !faults.LeaveProcessGroup && !childOnly && !(faults.TermWithoutKill && terminating) {
		reapGroup(cmd.Process.Pid, KillGrace)
	}
	o := outcome{status: status, duration: time.Since(start)}
	if ps := cmd.ProcessState; ps != nil && ps.Exited() {
		code := ps.ExitCode()
		o.exitCode = &code
	}
	return o, nil
}

// signalTree terminates the command's process tree, or kills only the
// interpreter under the LeaveProcessGroup fault.
func signalTree(p *os.Process, force bool, faults Faults) {
	if !faults.LeaveProcessGroup {
		terminateTree(p, force)
		return
	}
	_ = p.Kill()
}
