package hostproc

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// This file says what the harness knows of a host that did not answer a
// call in time, so that the error names the silence's cause: whether the
// request reached the host's input, what the host wrote since, whether the
// harness was reading, and what state the host process is in.
//
// Durations are given in whole seconds ("under 1s" below one), as a given-up
// call's are: the reasons of a result document are compared across runs,
// and the wall clock's jitter must stay out of them.

// diagnose describes the call with request id id, begun at m, that the
// host did not answer.
func (c *Client) diagnose(id int64, m mark) string {
	var facts []string
	if d := stalledBetween(m.at, time.Now()); d >= stallLate {
		facts = append(facts, fmt.Sprintf("the harness itself did not run for %s of the wait (its timers fired late: the machine paused or starved it)", seconds(d)))
	}
	if c.watch != nil {
		facts = append(facts, c.watch.state(id).describe(m)...)
	}
	if n := pendingBytes(c.outPipe); n > 0 {
		facts = append(facts, fmt.Sprintf("%d bytes of its output wait unread in the pipe", n))
	}
	if p := c.processFact(); p != "" {
		facts = append(facts, p)
	}
	if s := c.Stderr(); s != "" {
		facts = append(facts, "its stderr ends: "+fmt.Sprintf("%q", stderrEnd(s, diagStderr)))
	}
	return strings.Join(facts, "; ")
}

// readerBusy is how long the harness's reader may be busy with one line
// before a diagnosis says that it is not reading the host's output.
const readerBusy = 100 * time.Millisecond

// diagStderr is how much of the end of the host's standard error a
// diagnosis quotes, in bytes.
const diagStderr = 400

// describe says what became of the request and of the host's output.
func (s wireState) describe(m mark) []string {
	var facts []string
	since, after := m.lines, "since the call began"
	switch {
	case !s.written.end.IsZero():
		facts = append(facts, fmt.Sprintf("the request was written to the host's input %s after the call began", seconds(s.written.end.Sub(m.at))))
		since, after = s.written.lines, "since"
	case !s.blocked.start.IsZero() && s.blocked.id == s.id:
		facts = append(facts, fmt.Sprintf("the request was never wholly written to the host's input: its write has been blocked for %s (the host does not read its input)", seconds(s.now.Sub(s.blocked.start))))
	case !s.blocked.start.IsZero():
		what := "an earlier message"
		if s.blocked.id != 0 {
			what = fmt.Sprintf("request %d", s.blocked.id)
		}
		facts = append(facts, fmt.Sprintf("the request was never written to the host's input: the harness's write of %s has been blocked for %s (the host does not read its input)", what, seconds(s.now.Sub(s.blocked.start))))
	case s.laterWritten:
		facts = append(facts, "the request was written to the host's input")
	default:
		facts = append(facts, "the request was never written to the host's input, and no write is under way")
	}
	switch n := s.lines - since; n {
	case 0:
		facts = append(facts, "the harness read no line from the host "+after)
	case 1:
		facts = append(facts, "the harness read 1 line from the host "+after)
	default:
		facts = append(facts, fmt.Sprintf("the harness read %d lines from the host %s", n, after))
	}
	if s.lastLine.IsZero() {
		facts = append(facts, "it never read a line from the host")
	} else {
		facts = append(facts, fmt.Sprintf("the last line it read came %s ago", seconds(s.now.Sub(s.lastLine))))
	}
	if !s.readBusy.IsZero() && s.now.Sub(s.readBusy) >= readerBusy {
		facts = append(facts, fmt.Sprintf("the harness has not read the host's output for %s: it is still handling the last line", seconds(s.now.Sub(s.readBusy))))
	}
	return facts
}

// processFact says whether the host process is alive and in what state.
func (c *Client) processFact() string {
	if c.cmd == nil {
		return "" // Connect: no process
	}
	select {
	case <-c.waited:
		if c.waitErr != nil {
			return "the host process has exited (" + c.waitErr.Error() + ")"
		}
		return "the host process has exited (exit status 0)"
	default:
	}
	ps := readProcState(c.cmd.Process.Pid)
	if !ps.known {
		return "the host process is alive"
	}
	s := fmt.Sprintf("the host process is alive, %s (%c)", stateName(ps.state), ps.state)
	if ps.wchan != "" {
		s += " in " + ps.wchan
	}
	if ps.threads != "" {
		s += ", threads " + ps.threads
	}
	if len(ps.others) > 0 {
		s += "; its tree also holds " + strings.Join(ps.others, ", ")
	}
	return s
}

// stateName names a state letter of /proc/PID/stat.
func stateName(l byte) string {
	switch l {
	case 'R':
		return "running"
	case 'S':
		return "sleeping"
	case 'D':
		return "in uninterruptible sleep"
	case 'T':
		return "stopped"
	case 't':
		return "stopped by a tracer"
	case 'Z':
		return "a zombie"
	case 'X':
		return "dead"
	case 'I':
		return "idle"
	}
	return "in state"
}

// seconds renders d in whole seconds, "under 1s" below one.
func seconds(d time.Duration) string {
	if s := d.Truncate(time.Second); s > 0 {
		return s.String()
	}
	return "under 1s"
}

// stderrEnd returns about the last n bytes of s, from a line start when
// one falls within them.
func stderrEnd(s string, n int) string {
	if len(s) <= n {
		return s
	}
	t := s[len(s)-n:]
	if i := strings.IndexByte(t, '\n'); i >= 0 && i < len(t)-1 {
		return t[i+1:]
	}
	for len(t) > 0 && !utf8.RuneStart(t[0]) {
		t = t[1:]
	}
	return "…" + t
}
