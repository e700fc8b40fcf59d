package window_test

import (
	"fmt"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/window"
	"github.com/galaxy-stack/conform/internal/suite"
)

func TestWindow(t *testing.T) {
	suite.Run(t, "core/window")
}

// evidencePayload is a valid checkpoint payload whose evidence grows with
// n: n writes, n validations and a diff review of the last write.
func evidencePayload(n int) checkpoint.Payload {
	root := "/workspace"
	s := func(v string) *string { return &v }
	p := checkpoint.Payload{
		AcceptanceCriteria: []checkpoint.Criterion{},
		Approvals:          []string{},
		Compatibility: checkpoint.Compatibility{ActiveToolNames: []string{"read_file"}, Integrity: prompt.Integrity{CapabilitiesHash: "sha256:c",
			EffectCapabilitiesHash: "sha256:e", ModelIdentity: "model", PromptHash: "sha256:p", PromptVersion: "v1",
			RegistrySnapshotHash: "sha256:r", SystemPromptHash: "sha256:s", TaskContractHash: "sha256:t"}},
		Constraints:      []string{},
		Decisions:        []string{},
		Edits:            []checkpoint.Edit{},
		ExecutionBudget:  checkpoint.ExecutionBudget{DeadlinePolicy: checkpoint.DeadlinePerExecutionSegment, PersistenceGraceMs: 1000, SegmentDeadlineMs: 60000},
		Goal:             "fix the bug",
		LastToolCalls:    []checkpoint.ToolCallRecord{},
		NextAction:       "run the tests",
		OpenProblems:     []string{},
		PendingApprovals: []checkpoint.PendingApproval{},
		Phase:            checkpoint.PhaseExecuting,
		Plan:             checkpoint.Plan{Completed: []string{}, Pending: []string{}},
		RunID:            "run-1",
		SchemaVersion:    checkpoint.SchemaVersion,
		SeenToolCallIDs:  []string{},
		TaskID:           "task-1",
		TokenLedgerRef:   "ledger://run-1",
		Totals:           checkpoint.Totals{ToolCalls: int64(2 * n), ModelTurns: int64(n), CompactionCount: int64(n)},
		Validation:       []checkpoint.ValidationRecord{},
		Workspace:        checkpoint.Workspace{ActiveFiles: []checkpoint.ActiveFileRecord{}, Instructions: []string{}, Root: &root},
	}
	for i := 1; i <= n; i++ {
		write, check := fmt.Sprintf("write-%d", i), fmt.Sprintf("check-%d", i)
		p.SeenToolCallIDs = append(p.SeenToolCallIDs, write, check)
		p.Edits = append(p.Edits, checkpoint.Edit{AfterHash: s(fmt.Sprintf("sha256:after-%d", i)), BeforeHash: s(fmt.Sprintf("sha256:before-%d", i)),
			Path: fmt.Sprintf("src/file-%d.go", i), Sequence: int64(2*i - 1), ToolCallID: write, WorkspaceFingerprint: fmt.Sprintf("fp-%d", i)})
		p.Validation = append(p.Validation, checkpoint.ValidationRecord{Detail: "ok", ID: fmt.Sprintf("validation:%d", i),
			Scope: checkpoint.ScopeWorkspace, Sequence: int64(2 * i), Status: checkpoint.ValidationPassed, WorkspaceFingerprint: fmt.Sprintf("fp-%d", i)})
	}
	canon := func(v []string) []string { out := append([]string{}, v...); sortStrings(out); return out }
	p.SeenToolCallIDs = canon(p.SeenToolCallIDs)
	if n > 0 {
		p.CompletionEvidence.DiffReview = &checkpoint.DiffReview{DiffHash: fmt.Sprintf("sha256:diff-%d", n), Sequence: int64(2 * n), WorkspaceFingerprint: fmt.Sprintf("fp-%d", n)}
	}
	return p
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

// mustCheckpoint creates a checkpoint of evidencePayload(n).
func mustCheckpoint(n int, reason checkpoint.Reason) *checkpoint.Checkpoint {
	GinkgoHelper()
	cp, err := checkpoint.Create(evidencePayload(n), reason, "2026-08-28T00:00:00.000Z")
	Expect(err).NotTo(HaveOccurred())
	data, err := checkpoint.Serialize(cp)
	Expect(err).NotTo(HaveOccurred())
	Expect(checkpoint.Validate(data)).To(BeEmpty())
	return cp
}

// saver is a checkpoint function that records requests and returns
// checkpoints with growing evidence.
type saver struct {
	requests []window.CheckpointRequest
	err      error
}

func (s *saver) save(req window.CheckpointRequest) (window.CheckpointResult, error) {
	s.requests = append(s.requests, req)
	if s.err != nil {
		return window.CheckpointResult{}, s.err
	}
	cp, err := checkpoint.Create(evidencePayload(len(s.requests)), req.Reason, "2026-08-28T00:00:00.000Z")
	if err != nil {
		return window.CheckpointResult{}, err
	}
	return window.CheckpointResult{Checkpoint: cp, ArtifactRef: "memory://" + cp.ContentHash}, nil
}

func (s *saver) reasons() []checkpoint.Reason {
	out := make([]checkpoint.Reason, len(s.requests))
	for i, r := range s.requests {
		out[i] = r.Reason
	}
	return out
}

func newManager(window_ int, cp window.CheckpointFunc) *window.Manager {
	GinkgoHelper()
	m, err := window.New(window.Config{RunID: "run-1", TaskID: "task-1", Profile: window.Balanced, ContextWindow: window_,
		SystemPrompt: "Use tools and retain evidence.", GoalMessage: "TASK: fix the failing parser test", Checkpoint: cp})
	Expect(err).NotTo(HaveOccurred())
	return m
}

func call(id, name string, args map[string]any) port.ToolCall {
	return port.ToolCall{ToolCallID: id, Name: name, Arguments: args}
}

func assistantCalling(calls ...port.ToolCall) port.Message {
	return port.Message{Role: "assistant", ToolCalls: calls}
}

func joined(msgs []port.Message) string {
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = m.Content
	}
	return strings.Join(parts, "\n")
}

func roles(msgs []port.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Role
	}
	return out
}
