package model

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

// RequestRecord summarizes one round request the double received, for
// transcripts and oracles. Request is its 1-based position; Outcome is
// OutcomeRound (Round then names the 1-based scripted round that answered),
// OutcomeExhausted or OutcomeCanceled. ToolNames are the offered tool names
// in the order offered; ToolFree is true when none was offered.
// ContainsTask is true when some message contains the goal.
// CheckpointHashes are the distinct values of every "contentHash":"sha256:…"
// JSON member found in message text, in order of first appearance: the
// checkpoint hashes delivered to the model.
type RequestRecord struct {
	Request          int      `json:"request"`
	Outcome          string   `json:"outcome"`
	Round            int      `json:"round,omitempty"`
	Messages         int      `json:"messages"`
	ToolNames        []string `json:"toolNames"`
	ToolFree         bool     `json:"toolFree"`
	Think            bool     `json:"think"`
	ContainsTask     bool     `json:"containsTask"`
	CheckpointHashes []string `json:"checkpointHashes"`
	// TaskMessage is true when some user message is the core's user-task
	// message (prompt.UserTaskHeader) holding the goal: the task as the
	// user's request, not as a quotation inside a checkpoint's data. It is
	// left out of reports, which predate it.
	TaskMessage bool `json:"-"`
}

// checkpointHash finds a canonical checkpoint content hash in message text.
var checkpointHash = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"contentHash":"(sha256:[0-9a-f]{64})"`) })

// Records returns a summary of every round request received so far, oldest
// first. goal is the run's task text, for ContainsTask.
func (s *Scripted) Records(goal string) []RequestRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	quoted, _ := json.Marshal(goal)
	inTask := strings.Trim(string(quoted), `"`)
	out := make([]RequestRecord, len(s.requests))
	for i, r := range s.requests {
		req := r.req
		rec := RequestRecord{
			Request:          i + 1,
			Outcome:          s.answers[i].outcome,
			Round:            s.answers[i].round,
			Messages:         len(r.msgs),
			ToolNames:        make([]string, 0, len(req.Tools)),
			ToolFree:         len(req.Tools) == 0,
			Think:            req.Think,
			CheckpointHashes: []string{},
		}
		for _, t := range req.Tools {
			rec.ToolNames = append(rec.ToolNames, t.Function.Name)
		}
		for _, m := range r.msgs {
			if strings.Contains(m.Content, goal) {
				rec.ContainsTask = true
			}
			if m.Role == "user" && strings.HasPrefix(m.Content, prompt.UserTaskHeader) && strings.Contains(m.Content, inTask) {
				rec.TaskMessage = true
			}
			for _, match := range checkpointHash().FindAllStringSubmatch(m.Content, -1) {
				if !slices.Contains(rec.CheckpointHashes, match[1]) {
					rec.CheckpointHashes = append(rec.CheckpointHashes, match[1])
				}
			}
		}
		out[i] = rec
	}
	return out
}

// ContextAudit is the fixture report's modelContextAudit (LAB §3.10).
type ContextAudit struct {
	AllRequestsContainTask   bool     `json:"allRequestsContainTask"`
	ObservedCheckpointHashes []string `json:"observedCheckpointHashes"`
}

// Audit checks what the model was shown (LAB §3.10): whether it received at
// least one request and every request has a message containing goal, and
// which of the saved checkpoint hashes (in the given save order) appear in
// some message of some request.
func (s *Scripted) Audit(goal string, savedHashes []string) ContextAudit {
	s.mu.Lock()
	defer s.mu.Unlock()
	audit := ContextAudit{AllRequestsContainTask: len(s.requests) > 0, ObservedCheckpointHashes: []string{}}
	for _, req := range s.requests {
		if !anyContains(req.msgs, goal) {
			audit.AllRequestsContainTask = false
		}
	}
	for _, h := range savedHashes {
		for _, req := range s.requests {
			if anyContains(req.msgs, h) {
				audit.ObservedCheckpointHashes = append(audit.ObservedCheckpointHashes, h)
				break
			}
		}
	}
	return audit
}

func anyContains(ms []*port.Message, text string) bool {
	for _, m := range ms {
		if strings.Contains(m.Content, text) {
			return true
		}
	}
	return false
}
