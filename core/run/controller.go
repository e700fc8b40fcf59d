package run

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/gowebpki/jcs"
)

// Default budgets.
const (
	DefaultMaxTurns     = 24
	DefaultMaxToolCalls = 64
	defaultToolTimeout  = 120000
)

// runError is a runtime error that ends the run.
type runError struct {
	code string
	msg  string
}

func (e *runError) Error() string { return e.code + ": " + e.msg }

func fail(code, format string, args ...any) *runError {
	return &runError{code: code, msg: fmt.Sprintf(format, args...)}
}

// Run executes req to the end and returns how it ended. It never panics on
// bad input from the model or the host; those end the run as failed with a
// runtime error code.
func Run(ctx context.Context, deps Deps, req Request) Result {
	c := &controller{deps: deps, req: req}
	c.res.RunID = deps.IDs.NewID("run")
	if err := c.loop(ctx); err != nil {
		c.res.Status = StatusFailed
		c.res.ErrorCode = err.code
		c.res.ErrorMessage = err.msg
		if ctx.Err() != nil && err.code == CodeCanceled {
			c.res.Status = StatusCanceled
		}
	}
	return c.res
}

type controller struct {
	deps     Deps
	req      Request
	res      Result
	messages []port.Message
	seenIDs  map[string]bool
}

func (c *controller) emit(e Event) {
	if c.deps.OnEvent != nil {
		c.deps.OnEvent(e)
	}
}

func (c *controller) mode() string {
	if c.req.Mode == "" {
		return "auto"
	}
	return c.req.Mode
}

func (c *controller) loop(ctx context.Context) *runError {
	tools, err := c.deps.Tools.ToolSet(ctx)
	if err != nil {
		return fail(CodeToolExecution, "loading the host tool set: %v", err)
	}
	maxTurns := c.req.MaxTurns
	if maxTurns <= 0 {
		maxTurns = DefaultMaxTurns
	}
	maxCalls := c.req.MaxToolCalls
	if maxCalls <= 0 {
		maxCalls = DefaultMaxToolCalls
	}
	c.seenIDs = map[string]bool{}
	c.messages = []port.Message{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: "Task: " + c.req.Task},
	}
	for turn := 1; ; turn++ {
		if turn > maxTurns {
			return fail(CodeMaxTurns, "the run used its %d model turns", maxTurns)
		}
		c.res.Turns = turn
		if ctx.Err() != nil {
			return fail(CodeCanceled, "the run was canceled")
		}
		round, rerr := c.round(ctx, turn, tools)
		if rerr != nil {
			return rerr
		}
		c.messages = append(c.messages, port.Message{Role: "assistant", Content: round.content, ToolCalls: round.calls})
		if len(round.calls) == 0 {
			c.res.Status = StatusCompleted
			c.res.FinalResponse = round.content
			return nil
		}
		if len(c.res.Calls)+len(round.calls) > maxCalls {
			return fail(CodeMaxToolCalls, "the run would exceed its %d tool calls", maxCalls)
		}
		for _, call := range round.calls {
			if err := c.dispatch(ctx, turn, tools, call); err != nil {
				return err
			}
		}
	}
}

type roundResult struct {
	content string
	calls   []port.ToolCall
}

// round streams one model round and checks the stream's ordering rules.
func (c *controller) round(ctx context.Context, turn int, tools port.ToolSet) (roundResult, *runError) {
	events, err := c.deps.Model.StreamRound(ctx, port.RoundRequest{Messages: c.messages, Tools: tools.Definitions})
	if err != nil {
		return roundResult{}, fail(CodeProviderError, "model round %d: %v", turn, err)
	}
	offered := map[string]bool{}
	for _, d := range tools.Definitions {
		offered[d.Function.Name] = true
	}
	var r roundResult
	var streamed strings.Builder
	started, done := false, false
	for _, ev := range events {
		ev := ev
		c.emit(Event{Type: "model", Turn: turn, Model: &ev})
		if done {
			return r, fail(CodeInvalidModelStream, "event %q after done", ev.Type)
		}
		if ev.Type != port.EventStarted && ev.Type != port.EventError && ev.Type != port.EventCanceled && !started {
			return r, fail(CodeInvalidModelStream, "event %q before started", ev.Type)
		}
		switch ev.Type {
		case port.EventStarted:
			if started {
				return r, fail(CodeInvalidModelStream, "second started event")
			}
			started = true
		case port.EventContent:
			streamed.WriteString(ev.Delta)
		case port.EventThinking, port.EventUsage:
		case port.EventToolCall:
			if ev.Call == nil || strings.TrimSpace(ev.Call.ToolCallID) == "" {
				return r, fail(CodeInvalidModelStream, "tool call without an id")
			}
			if c.seenIDs[ev.Call.ToolCallID] {
				return r, fail(CodeInvalidModelStream, "tool call id %q reused", ev.Call.ToolCallID)
			}
			c.seenIDs[ev.Call.ToolCallID] = true
			if !offered[ev.Call.Name] {
				return r, fail(CodeInvalidModelStream, "tool %q was not offered in this round", ev.Call.Name)
			}
			r.calls = append(r.calls, *ev.Call)
		case port.EventError:
			if ev.Error != nil && ev.Error.Code == "AUTHENTICATION" {
				return r, fail(CodeProviderAuthentication, "%s", ev.Error.Message)
			}
			msg := "provider error"
			if ev.Error != nil {
				msg = ev.Error.Code + ": " + ev.Error.Message
			}
			return r, fail(CodeProviderError, "%s", msg)
		case port.EventCanceled:
			return r, fail(CodeCanceled, "the provider canceled the round")
		case port.EventDone:
			done = true
			content := ev.Content
			if content == "" {
				content = streamed.String()
			} else if streamed.Len() > 0 && streamed.String() != content {
				return r, fail(CodeInvalidModelStream, "done content differs from streamed content")
			}
			r.content = content
			switch ev.StopReason {
			case port.StopToolCalls:
				if len(r.calls) == 0 {
					return r, fail(CodeInvalidModelStream, "stop reason tool_calls without tool calls")
				}
			case port.StopCompleted:
				if len(r.calls) > 0 {
					return r, fail(CodeInvalidModelStream, "tool calls with stop reason completed")
				}
				if strings.TrimSpace(content) == "" {
					return r, fail(CodeInvalidModelStream, "completed round with blank content")
				}
			default:
				return r, fail(CodeInvalidModelStream, "non-final stop reason %q", ev.StopReason)
			}
		default:
			return r, fail(CodeInvalidModelStream, "unknown event type %q", ev.Type)
		}
	}
	if !done {
		return r, fail(CodeProviderError, "MALFORMED_STREAM: the stream ended without done")
	}
	return r, nil
}

func (c *controller) dispatch(ctx context.Context, turn int, tools port.ToolSet, call port.ToolCall) *runError {
	canonical, ok := tools.CanonicalToolIDs[call.Name]
	if !ok {
		return fail(CodeToolExecution, "tool %q has no canonical ID in the host tool set", call.Name)
	}
	argsHash, err := hashCanonical(call.Arguments)
	if err != nil {
		return fail(CodeInvalidModelStream, "arguments of %q are not canonical JSON: %v", call.ToolCallID, err)
	}
	key, err := hashCanonical(map[string]any{"runId": c.res.RunID, "toolCallId": call.ToolCallID, "name": call.Name, "argumentsHash": argsHash})
	if err != nil {
		return fail(CodeInvalidModelStream, "idempotency key: %v", err)
	}
	c.emit(Event{Type: "tool_start", Turn: turn, Call: &call})
	rec := CallRecord{Call: call, CanonicalID: canonical}
	result, err := c.deps.Tools.Execute(ctx, call, port.ToolContext{
		RunID: c.res.RunID, TaskID: c.req.TaskID, Mode: c.mode(),
		ToolCallID: call.ToolCallID, IdempotencyKey: key, TimeoutMs: defaultToolTimeout,
	})
	if err != nil {
		rec.Error = err.Error()
		c.res.Calls = append(c.res.Calls, rec)
		return fail(CodeToolExecution, "call %q to %s has an unknown outcome: %v", call.ToolCallID, canonical, err)
	}
	rec.Result = &result
	c.res.Calls = append(c.res.Calls, rec)
	c.emit(Event{Type: "tool_result", Turn: turn, Call: &call, Result: &result})
	if result.CanonicalToolID != canonical {
		return fail(CodeToolExecution, "call %q: result names tool %q, expected %q", call.ToolCallID, result.CanonicalToolID, canonical)
	}
	c.messages = append(c.messages, port.Message{Role: "tool", Content: result.Content, ToolCallID: call.ToolCallID, ToolName: call.Name})
	return nil
}

// hashCanonical is SHA-256 over the RFC 8785 form of v.
func hashCanonical(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	c, err := jcs.Transform(b)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

const systemPrompt = "You are a coding agent working in one workspace through the tools offered. Inspect before you change, and report what you observed."
