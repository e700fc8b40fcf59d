package run

import (
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/window"
)

// observation is one tool outcome as the model sees it (RUNTIME §15 step 20).
type observation struct {
	ArtifactRef string
	Call        port.ToolCall
	Content     string
	Failed      bool
	Kind        string
	Summary     string
	Trust       string
}

// windowObservations converts observations for the context manager.
func windowObservations(obs []observation) []window.Observation {
	if len(obs) == 0 {
		return nil
	}
	out := make([]window.Observation, len(obs))
	for i, o := range obs {
		out[i] = window.Observation{ArtifactRef: o.ArtifactRef, Call: o.Call, Content: o.Content, Failed: o.Failed,
			Kind: window.ItemKind(o.Kind), Summary: o.Summary, Trust: window.Trust(o.Trust)}
	}
	return out
}

// addFeedback adds trusted runtime feedback to the context for the next
// request (CONTRACTS §12.5 addFeedback).
func (s *session) addFeedback(text string) {
	if s.win != nil && text != "" {
		s.win.AddFeedback(text, s.modelTurns)
	}
}

// addInteraction records an assistant message and the observations of its
// calls, in call order, each correlated by tool call ID.
func (s *session) addInteraction(assistant port.Message, obs []observation) {
	s.win.AddInteraction(assistant, windowObservations(obs), s.modelTurns)
}
