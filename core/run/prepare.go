package run

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
)

// integrity holds the compatibility hashes of a run (RUNTIME §10.3 step 8).
type integrity struct {
	capabilitiesHash       string
	effectCapabilitiesHash string
	systemPromptHash       string
	taskContractHash       string
	modelIdentity          string
}

const commandRunID = "command.run"

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
	tc := newTaskContract(s.req)
	userTask := userTaskMessage(tc, s.req.ContextData)
	prompt, err := s.assemble(ts)
	if err != nil {
		return err
	}
	s.prompt = prompt
	if err := s.computeIntegrity(ts, tc, userTask); err != nil {
		return err
	}
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
	if _, err := effects.CheckToolSet(ts); err != nil {
		return nil, asToolSetError(err)
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
// (RUNTIME §10.3 step 7).
func (s *session) assemble(ts *port.ToolSet) (promptSnapshot, error) {
	for _, id := range ts.CanonicalToolIDs {
		if id != commandRunID {
			continue
		}
		he := s.req.Prompt.HostEnvironment
		if he == nil || he.OperatingSystem == "unknown" || he.Command.Executable == "unknown" ||
			he.Command.PathStyle == "unknown" || he.Command.Shell == "unknown" || len(he.Command.ArgumentsPrefix) == 0 {
			return promptSnapshot{}, newError(CodeCapabilityMismatch, "An active command.run tool requires a concrete hostEnvironment.command interpreter and shell dialect.")
		}
	}
	p, err := assemblePrompt(*s.req.Prompt, s.caps, s.req.mode(), ts.SnapshotHash, s.req.TaskID)
	if err != nil {
		return p, &Error{Code: CodeProviderError, Message: err.Error()}
	}
	return p, nil
}

func (s *session) computeIntegrity(ts *port.ToolSet, tc taskContract, userTask string) error {
	capsHash, err := checkpoint.CapabilitiesHash(s.caps)
	if err != nil {
		return err
	}
	effHash, err := checkpoint.EffectCapabilitiesHash(ts.EffectCapabilities)
	if err != nil {
		return err
	}
	sysHash, err := runtimeHash(s.prompt.SystemPrompt)
	if err != nil {
		return err
	}
	attachments := []Attachment{}
	attachments = append(attachments, s.req.Attachments...)
	completion := any(map[string]any{})
	if s.req.Completion != nil {
		completion = s.req.Completion
	}
	taskHash, err := runtimeHash(map[string]any{"attachments": attachments, "completion": completion, "taskContract": tc, "userTaskMessage": userTask})
	if err != nil {
		return err
	}
	s.integrity = &integrity{capabilitiesHash: capsHash, effectCapabilitiesHash: effHash, systemPromptHash: sysHash,
		taskContractHash: taskHash, modelIdentity: identityKey(s.deps.Model.Identity())}
	return nil
}

func (s *session) tracePromptSnapshot() {
	s.trace.emit(s.ctx, port.TracePromptSnapshot, map[string]any{
		"modelIdentity": s.integrity.modelIdentity, "promptHash": s.prompt.PromptHash, "promptVersion": s.prompt.PromptVersion,
		"registrySnapshotHash": s.toolSet.SnapshotHash, "systemPromptHash": s.integrity.systemPromptHash,
		"taskContractHash": s.integrity.taskContractHash,
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
	effHash, err := checkpoint.EffectCapabilitiesHash(ts.EffectCapabilities)
	if err != nil {
		return err
	}
	if effHash != s.integrity.effectCapabilitiesHash {
		return newError(CodeToolExecution, "Host effect capability policy changed during the run.")
	}
	if ts.SnapshotHash == s.toolSet.SnapshotHash {
		s.toolSet = ts
		return nil
	}
	p, err := s.assemble(ts)
	if err != nil {
		return err
	}
	sysHash, err := runtimeHash(p.SystemPrompt)
	if err != nil {
		return err
	}
	s.prompt, s.integrity.systemPromptHash, s.toolSet = p, sysHash, ts
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
