package doubles

import (
	"fmt"
	"sort"

	"github.com/galaxy-stack/conform/core/canon"
)

// session is one simulated command session.
type session struct {
	id, command, status, stdout, stderr string
}

func (t *Tools) sortedSessions() []*session {
	out := make([]*session, 0, len(t.sessions))
	for _, s := range t.sessions {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return canon.CompareText(out[i].id, out[j].id) < 0 })
	return out
}

// sessionState is the state the session version covers: every session,
// sorted by ID.
func (t *Tools) sessionState() []map[string]any {
	var out []map[string]any
	for _, s := range t.sortedSessions() {
		out = append(out, map[string]any{"command": s.command, "id": s.id, "status": s.status, "stderr": s.stderr, "stdout": s.stdout})
	}
	return out
}

// manageSession is command.session: start, read, write, interrupt, kill and
// list simulated sessions. Nothing runs.
func (t *Tools) manageSession(args map[string]any) outcome {
	action, bad := stringArg(args, "action")
	if bad != nil {
		return *bad
	}
	switch action {
	case "list":
		list := []canon.Object{}
		for _, s := range t.sortedSessions() {
			list = append(list, obj("sessionId", s.id, "command", s.command, "status", s.status))
		}
		return outcome{
			output:  obj("action", action, "status", "listed", "sessions", list),
			summary: fmt.Sprintf("Listed %d deterministic session(s).", len(list)),
			trust:   "trusted",
		}
	case "start":
		command := stringOr(args, "command", "")
		if command == "" {
			return invalid("Starting a deterministic session requires a command.")
		}
		t.seq.session++
		s := &session{id: fmt.Sprintf("session-%04d", t.seq.session), command: command, status: "running", stdout: "started:" + command + "\n"}
		t.sessions[s.id] = s
		return sessionResult(action, s, nil).withState(t.sessionState())
	}
	id := stringOr(args, "sessionId", "")
	if id == "" {
		return invalid("Session action '" + action + "' requires sessionId.")
	}
	s, ok := t.sessions[id]
	if !ok {
		return contractError("NOT_FOUND", "Deterministic session '"+id+"' does not exist.")
	}
	switch action {
	case "read":
		return sessionResult(action, s, args)
	case "write":
		if s.status != "running" {
			return contractError("CONFLICT", "Session '"+id+"' is not running.")
		}
		s.stdout += "input:" + stringOr(args, "input", "") + "\n"
	case "interrupt":
		s.status = "interrupted"
		s.stderr += "interrupted\n"
	case "kill":
		s.status = "killed"
		s.stderr += "killed\n"
	}
	return sessionResult(action, s, args).withState(t.sessionState())
}

// sessionResult pages the session's streams independently by their
// "offset:<n>" cursors, in UTF-16 code units. Without args (start) it uses
// the defaults.
func sessionResult(action string, s *session, args map[string]any) outcome {
	if args == nil {
		args = map[string]any{}
	}
	maxChars := count(numberOr(args, "maxChars", defaultSessionChars))
	stdout, cur1, bad := sessionPage(s.stdout, args, "stdoutAfter", maxChars)
	if bad != nil {
		return *bad
	}
	stderr, cur2, bad := sessionPage(s.stderr, args, "stderrAfter", maxChars)
	if bad != nil {
		return *bad
	}
	return outcome{
		output: obj("action", action, "sessionId", s.id, "status", s.status,
			"stdout", stdout, "stderr", stderr, "stdoutCursor", cur1, "stderrCursor", cur2),
		summary: "Deterministic session " + s.id + " is " + s.status + ".",
		trust:   "external",
	}
}

func sessionPage(text string, args map[string]any, name string, maxChars int) (string, string, *outcome) {
	n := canon.UTF16Len(text)
	start, bad := cursor(args, name, "offset:", n)
	if bad != nil {
		return "", "", bad
	}
	end := min(n, start+maxChars)
	return utf16Slice(text, start, end), fmt.Sprintf("offset:%d", end), nil
}
