package run

import "github.com/galaxy-stack/conform/core/port"

// conversation is the run's model context: the system prompt, the P0 user
// task and the history of interactions and runtime feedback. It stands in
// for the context manager of CONTRACTS §12.5 (token ledger, pressure,
// compaction), whose budgeted preparation is the context step of part 2;
// here every request carries the whole history.
type conversation struct {
	system         string
	task           string
	mandatoryState string
	history        []port.Message
}

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

// messages returns the prepared request messages.
func (c *conversation) messages() []port.Message {
	out := make([]port.Message, 0, len(c.history)+3)
	out = append(out, port.Message{Role: "system", Content: c.system}, port.Message{Role: "user", Content: c.task})
	out = append(out, c.history...)
	if c.mandatoryState != "" {
		out = append(out, port.Message{Role: "user", Content: c.mandatoryState})
	}
	return out
}

// addFeedback appends trusted runtime feedback for the next request.
func (c *conversation) addFeedback(text string) {
	c.history = append(c.history, port.Message{Role: "user", Content: text})
}

// addInteraction records an assistant message and the observations of its
// calls, in call order, each correlated by tool call ID.
func (c *conversation) addInteraction(assistant port.Message, obs []observation) {
	c.history = append(c.history, assistant)
	for _, o := range obs {
		c.history = append(c.history, port.Message{Role: "tool", Content: o.Content, ToolCallID: o.Call.ToolCallID, ToolName: o.Call.Name})
	}
}
