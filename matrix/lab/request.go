package lab

import (
	"fmt"

	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/fixture"
)

// request builds the run request of LAB §3.8 from a fixture, its settings,
// the workspace root, the task override (or "") and the initialized host.
func request(fx *fixture.Fixture, set fixture.Settings, workspace, task string, init wire.InitializeResult, env *prompt.HostEnvironment) run.Request {
	goal := fx.Task
	if task != "" {
		goal = task
	}
	f := func(n int) *float64 { v := float64(n); return &v }
	b := set.Budget
	budget := &run.BudgetInput{
		DeadlineMs:              f(b.DeadlineMs),
		MaxCompletionRejections: f(b.MaxCompletionRejections),
		MaxModelRetries:         f(b.MaxModelRetries),
		MaxToolCalls:            f(b.MaxToolCalls),
		MaxTurns:                f(b.MaxTurns),
	}
	if b.PersistenceGraceMs != nil {
		budget.PersistenceGraceMs = f(*b.PersistenceGraceMs)
	}
	if b.ModelRetryDelaysMs != nil {
		budget.ModelRetryDelaysMs = make([]float64, len(b.ModelRetryDelaysMs))
		for i, d := range b.ModelRetryDelaysMs {
			budget.ModelRetryDelaysMs[i] = float64(d)
		}
	}
	if t := b.ToolOutput; t != nil {
		frac := t.TailFraction
		budget.ToolOutput = &run.ToolOutputBudget{MaxBytes: f(t.MaxBytes), MaxTokens: f(t.MaxTokens), TailFraction: &frac}
	}
	c := set.Completion
	yes := func(v bool) *bool { return &v }
	completion := &prompt.Completion{
		RequireFinalReportPersistence: yes(c.RequireFinalReportPersistence),
		RequireInspection:             yes(c.RequireInspection),
		RequireTokenLedger:            yes(c.RequireTokenLedger),
		RequireTrace:                  yes(c.RequireTrace),
		RequireValidation:             c.RequireValidation,
	}
	network := "allowed"
	if init.Containment != nil && init.Containment.Network == "denied" {
		network = "denied"
	}
	dirty := fixture.DirtyStateSummary
	cfg := prompt.Configuration{
		ApprovalProfile:   set.ApprovalProfile,
		Complexity:        set.Complexity,
		DirtyStateSummary: &dirty,
		HostEnvironment:   env,
		NetworkAccess:     network,
		WriteAccess:       set.WriteAccess,
	}
	for i, w := range fx.WorkspaceInstructions {
		cfg.TrustedWorkspaceInstructions = append(cfg.TrustedWorkspaceInstructions,
			prompt.TrustedInstruction{Content: w, Source: fmt.Sprintf("fixture.workspaceInstructions[%d]", i)})
	}
	req := run.Request{Request: prompt.Request{
		Goal: goal, TaskID: fx.TaskID(), RunID: fx.RunID(), WorkspaceRoot: workspace, Mode: set.Mode,
		Prompt: cfg, Completion: completion, TokenProfile: set.TokenProfile,
	}, Budget: budget}
	for _, a := range fx.AcceptanceCriteria {
		req.AcceptanceCriteria = append(req.AcceptanceCriteria, prompt.Criterion{ID: a.ID, Text: a.Text, Required: a.Required})
	}
	if fx.Constraints != nil {
		req.Constraints = append([]string{}, fx.Constraints...)
	}
	return req
}
