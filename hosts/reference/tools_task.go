package reference

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/gowebpki/jcs"
)

// searchCatalog is catalog.search (LAB §20.3): it finds and activates
// tools; they become callable on the next model turn.
func searchCatalog(ctx context.Context, s *session, c *call) (outcome, error) {
	var req catalog.SearchRequest
	if err := c.decode(&req); err != nil {
		return outcome{}, err
	}
	r := s.registry.Search(req)
	if r.Matches == nil {
		r.Matches = []catalog.SearchMatch{}
	}
	if r.Activated == nil {
		r.Activated = []string{}
	}
	return outcome{Output: r, Summary: fmt.Sprintf("Activated %d matching tool(s).", len(r.Activated)), Trust: "trusted",
		Effects: &port.Effects{StateVersion: r.ActiveHash}}, nil
}

// updateCheckpoint is task.checkpoint (LAB §20.3): bounded task state per
// run, kept in the store directory so that a fresh host sees it.
func updateCheckpoint(ctx context.Context, s *session, c *call) (outcome, error) {
	var a struct {
		Action    string   `json:"action"`
		Goal      *string  `json:"goal"`
		Progress  *string  `json:"progress"`
		Decisions []string `json:"decisions"`
		NextStep  *string  `json:"nextStep"`
	}
	if err := c.decode(&a); err != nil {
		return outcome{}, err
	}
	runID, taskID := c.p.Context.RunID, c.p.Context.TaskID
	s.tasks.mu.Lock()
	defer s.tasks.mu.Unlock()
	prev, err := s.tasks.load(runID)
	if err != nil {
		return outcome{}, unknownf("the task checkpoint could not be read: %v", err)
	}
	stamp := s.now().UTC().Format(time.RFC3339Nano)
	var st taskState
	updated := a.Action == "update"
	if updated {
		st = taskState{Goal: "Task " + taskID, Decisions: nonNil(a.Decisions), UpdatedAt: stamp}
		if prev != nil {
			st.Goal, st.Progress, st.NextStep = prev.Goal, prev.Progress, prev.NextStep
		}
		if a.Goal != nil {
			st.Goal = *a.Goal
		}
		if a.Progress != nil {
			st.Progress = *a.Progress
		}
		if a.NextStep != nil {
			st.NextStep = *a.NextStep
		}
		if strings.TrimSpace(st.Goal) == "" {
			st.Goal = "Task " + taskID
		}
	} else if prev != nil {
		st = *prev
	} else {
		st = taskState{Goal: "Task " + taskID, Decisions: []string{}, NextStep: "Inspect the workspace.", UpdatedAt: stamp}
	}
	if updated || prev == nil {
		if err := s.tasks.save(runID, st); err != nil {
			return outcome{}, unknownf("the task checkpoint could not be saved: %v", err)
		}
	}
	version, err := stateVersion(st)
	if err != nil {
		return outcome{}, err
	}
	plan := &port.Plan{Completed: []string{}, Pending: []string{}, Decisions: st.Decisions}
	if strings.TrimSpace(st.Progress) != "" {
		plan.Completed = []string{st.Progress}
	}
	if next := strings.TrimSpace(st.NextStep); next != "" {
		plan.InProgress = &next
	}
	eff := &port.Effects{Plan: plan, StateVersion: version}
	if strings.TrimSpace(st.NextStep) != "" {
		eff.NextAction = st.NextStep
	}
	summary := "Read the bounded task checkpoint."
	if updated {
		summary = "Updated the bounded task checkpoint."
	}
	out := struct {
		Action       string    `json:"action"`
		CheckpointID string    `json:"checkpointId"`
		Updated      bool      `json:"updated"`
		Checkpoint   taskState `json:"checkpoint"`
	}{a.Action, runID, updated, st}
	return outcome{Output: out, Summary: summary, Trust: "trusted", Effects: eff}, nil
}

// stateVersion hashes the task state's canonical JSON, so that equal
// states have equal versions however they were created (DECISIONS 62).
func stateVersion(st taskState) (string, error) {
	b, err := compactJSON(st)
	if err != nil {
		return "", err
	}
	canon, err := jcs.Transform([]byte(b))
	if err != nil {
		return "", err
	}
	return "sha256:" + sha256Text(string(canon)), nil
}
