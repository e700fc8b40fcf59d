package run

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

// prepare is RUNTIME §10.3.
func (s *session) prepare() error {
	if err := s.checkControl(); err != nil {
		return err
	}
	if s.guardErr != nil {
		return &Error{Code: CodeProviderError, Message: s.guardErr.Error()}
	}
	var resumeFrom *checkpoint.Checkpoint
	if s.resume {
		cp, err := s.loadResumeCheckpoint()
		if err != nil {
			return err
		}
		resumeFrom = cp
		if r, ok := s.deps.Tools.(ToolSetRestorer); ok {
			if err := r.RestoreToolSet(s.ctx, slices.Clone(cp.Compatibility.ActiveToolNames), cp.Compatibility.RegistrySnapshotHash); err != nil {
				if ctrl := s.checkControl(); ctrl != nil {
					return ctrl
				}
				return asToolSetError(err)
			}
		}
	}
	ts, err := s.loadToolSet(s.ctx)
	if err != nil {
		return err
	}
	s.toolSet = ts
	if err := s.probeCapabilities(); err != nil {
		return err
	}
	contract := prompt.ContractForRequest(s.req.Request)
	userTask := prompt.UserTaskForRequest(s.req.Request, contract)
	snap, err := s.assemble(ts)
	if err != nil {
		return err
	}
	s.prompt = snap
	integ := prompt.NewIntegrity(prompt.IntegrityInput{Request: s.req.Request, Contract: contract, UserTask: userTask,
		Prompt: snap, Capabilities: s.caps, Identity: s.deps.Model.Identity(), ToolSet: *ts})
	s.integrity = &integ
	if resumeFrom != nil {
		if err := s.restoreFrom(resumeFrom); err != nil {
			return err
		}
	}
	if err := s.newWindow(userTask, resumeFrom); err != nil {
		return err
	}
	s.tracePromptSnapshot()
	return nil
}

func asToolSetError(err error) error {
	if re, ok := err.(*Error); ok {
		return re
	}
	if ee, ok := err.(*effects.Error); ok {
		return &Error{Code: ee.Code, Message: ee.Message}
	}
	return &Error{Code: CodeToolExecution, Message: err.Error()}
}

// loadToolSet fetches and checks the host's active tool set (RUNTIME §3).
// A set equal to the last one accepted, in what the check reads, is not
// checked again (see [checkedToolSet]).
func (s *session) loadToolSet(ctx context.Context) (*port.ToolSet, error) {
	var ts port.ToolSet
	err := safeCall(func() error {
		var e error
		ts, e = s.deps.Tools.ToolSet(ctx)
		return e
	})
	if err != nil {
		if ctx == s.ctx {
			if ctrl := s.checkControl(); ctrl != nil {
				return nil, ctrl
			}
		}
		return nil, asToolSetError(err)
	}
	if !s.checkedTools.same(ts) {
		if _, err := effects.CheckToolSet(ts); err != nil {
			return nil, asToolSetError(err)
		}
		s.checkedTools = newCheckedToolSet(ts)
	}
	return &ts, nil
}

func (s *session) probeCapabilities() error {
	rep, ok := s.deps.Model.(port.CapabilityReporter)
	if !ok {
		return newError(CodeCapabilityMismatch, "The selected model has not verified text input/output support.")
	}
	caps, err := rep.Capabilities(s.ctx)
	if err != nil {
		if ctrl := s.checkControl(); ctrl != nil {
			return ctrl
		}
		re := &Error{Code: CodeProviderError, Message: err.Error()}
		if pe, ok := err.(*port.Error); ok {
			re.Message, re.Retryable = pe.Message, pe.Retryable
		}
		return re
	}
	if caps.Input.Text != port.CapabilitySupported || caps.Output.Text != port.CapabilitySupported {
		return newError(CodeCapabilityMismatch, "The selected model has not verified text input/output support.")
	}
	if caps.Streaming != port.CapabilitySupported || caps.ToolCalling != port.CapabilitySupported {
		return newError(CodeCapabilityMismatch, "The selected model has not verified streaming and tool-calling support.")
	}
	if len(s.req.Attachments) > 0 {
		if caps.Input.Image != port.CapabilitySupported {
			return newError(CodeCapabilityMismatch, "The selected model does not support image attachments.")
		}
		if caps.MaxImages != nil && len(s.req.Attachments) > *caps.MaxImages {
			return newError(CodeCapabilityMismatch, "Attachment count %d exceeds the verified model limit %d.", len(s.req.Attachments), *caps.MaxImages)
		}
		for _, a := range s.req.Attachments {
			if !strings.HasPrefix(strings.ToLower(a.MimeType), "image/") {
				return newError(CodeCapabilityMismatch, "Attachment %s is not a supported image payload.", a.Name)
			}
			if len(caps.SupportedImageMimeTypes) > 0 && !slices.Contains(caps.SupportedImageMimeTypes, a.MimeType) {
				return newError(CodeCapabilityMismatch, "Attachment MIME %s is outside the model's verified image MIME set.", a.MimeType)
			}
		}
	}
	s.caps = caps
	return nil
}

// assemble checks the command.run contract and assembles the prompt for ts
// with core/prompt (RUNTIME §10.3 step 7): the prompt configuration, the
// verified capabilities, the mode, the active registry hash, the task ID
// and the workspace path ".".
func (s *session) assemble(ts *port.ToolSet) (prompt.Snapshot, error) {
	if err := prompt.CheckCommandEnvironment(s.req.Prompt, ts.CanonicalToolIDs); err != nil {
		var pe *prompt.Error
		if errors.As(err, &pe) {
			return prompt.Snapshot{}, &Error{Code: pe.Code, Message: pe.Message}
		}
		return prompt.Snapshot{}, &Error{Code: CodeCapabilityMismatch, Message: err.Error()}
	}
	snap, err := prompt.Assemble(prompt.Options{Config: s.req.Prompt, Capabilities: s.caps, Mode: s.req.ModeOrDefault(),
		RegistrySnapshotHash: ts.SnapshotHash, TaskID: s.req.TaskID, WorkspacePath: prompt.WorkspaceRoot()})
	if err != nil {
		return snap, &Error{Code: CodeProviderError, Message: err.Error()}
	}
	return snap, nil
}

func (s *session) tracePromptSnapshot() {
	s.trace.emit(s.ctx, port.TracePromptSnapshot, map[string]any{
		"modelIdentity": s.integrity.ModelIdentity, "promptHash": s.integrity.PromptHash, "promptVersion": s.integrity.PromptVersion,
		"registrySnapshotHash": s.integrity.RegistrySnapshotHash, "systemPromptHash": s.integrity.SystemPromptHash,
		"taskContractHash": s.integrity.TaskContractHash,
	})
}

// refreshToolSet fetches the tool set and adopts it (RUNTIME §11.1). It
// reports whether the prompt was re-assembled; trace says whether to trace
// the new prompt snapshot.
func (s *session) refreshToolSet(ctx context.Context, trace bool) error {
	ts, err := s.loadToolSet(ctx)
	if err != nil {
		return err
	}
	if s.integrity == nil {
		s.toolSet = ts
		return nil
	}
	if !s.effectsVerified || !maps.EqualFunc(ts.EffectCapabilities, s.verifiedEffects, slices.Equal) {
		if prompt.EffectCapabilitiesHash(ts.EffectCapabilities) != s.integrity.EffectCapabilitiesHash {
			return newError(CodeToolExecution, "Host effect capability policy changed during the run.")
		}
		s.verifiedEffects, s.effectsVerified = clonePolicy(ts.EffectCapabilities), true
	}
	if ts.SnapshotHash == s.toolSet.SnapshotHash || faults.On(faults.PromptHashIgnoresRegistry) {
		s.toolSet = ts
		return nil
	}
	p, err := s.assemble(ts)
	if err != nil {
		return err
	}
	s.prompt, s.toolSet = p, ts
	s.integrity.PromptHash, s.integrity.PromptVersion = p.PromptHash, p.PromptVersion
	s.integrity.RegistrySnapshotHash, s.integrity.SystemPromptHash = ts.SnapshotHash, prompt.SystemPromptHash(p.SystemPrompt)
	if s.win != nil {
		s.win.ReplaceSystemPrompt(p.SystemPrompt, s.modelTurns, s.caps.SystemPromptUpdate == "in-history")
	}
	if trace {
		s.tracePromptSnapshot()
	}
	return nil
}

// activeToolNames are the sorted model names of the current tool set.
func (s *session) activeToolNames() []string {
	names := []string{}
	for _, d := range s.toolSet.Definitions {
		names = append(names, d.Function.Name)
	}
	sort.Strings(names)
	return names
}

// hasGit reports whether a Git tool is active (for the DIFF_NOT_REVIEWED
// remediation variant).
func (s *session) hasGit() bool {
	for _, id := range s.toolSet.CanonicalToolIDs {
		if id == "git.diff" || id == "git.exec" {
			return true
		}
	}
	return false
}

// clonePolicy returns a deep copy of an effect policy.
func clonePolicy(p map[string][]string) map[string][]string {
	out := make(map[string][]string, len(p))
	for id, caps := range p {
		out[id] = slices.Clone(caps)
	}
	return out
}
