// Package model is the scripted model double: a deterministic stand-in for
// a coding model that plays back the rounds of a scenario in order, answers
// token counts from a scripted queue, and records every request it
// receives. It is a double, not a model. Its behaviour follows the original
// lab's scripted model (LAB §8) and its script is the original fixture
// format (LAB §1.2 rounds, §1.6 model overrides).
//
// # Example
//
//	m := model.NewScripted([]model.Round{
//		model.ErrorRound("RATE_LIMITED", "temporary quota", true),
//		model.CallRound(model.ToolCall{ToolCallID: "c1", ToolName: "list_files",
//			Arguments: map[string]any{"path": "."}}),
//		model.TextRound("Done."),
//	}, model.WithTokenCountSteps(model.Count(500)))
//
//	events, _ := m.StreamRound(ctx, req) // started, error (retryable)
//	count, _ := m.CountTokens(ctx, req.Messages, req.Tools) // exact 500
//	m.Consumed()                          // false until all rounds and steps are used
//
// # Rounds
//
// A structured round (content, toolCalls, finishReason, token counts)
// becomes the events started, content (when non-empty), one tool_call per
// call, usage, done. A raw round (events) is played back event by event,
// faults included, so the core's own stream checks are exercised. A
// request past the end of the script is answered with a PROVIDER_ERROR
// error event; a request whose context is already done is answered with a
// canceled event and consumes no round.
//
// # Controls
//
// [Controls] counts runtime events and says when a declared cancel or pause
// control fires (LAB §1.5, §3.7). The run controller feeds it every runtime
// event and applies what fires.
package model
