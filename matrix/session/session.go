// Package session starts one host process for the harness: StartHost
// starts and initializes it and gives the core's ports over it — the tool
// executor (which also restores checkpointed tool sets), and, when the host
// offers them, the run store over store/*, the trace over trace/* and the
// workspace evidence verifier over workspace/fingerprint — and it answers
// the host's approval requests from the scenario's decisions.
package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
)

// executor is the core's tool executor port over the wire client. It keeps
// the first protocol error the host made.
type executor struct {
	client *hostproc.Client
	mu     sync.Mutex
	err    error
}

// record keeps err when it is the host's first protocol break, and returns
// it: a JSON-RPC error that breaks the protocol is first made a
// *wire.ProtocolError (answerError).
func (e *executor) record(err error) error {
	return e.recordCall(err, "")
}

// recordCall is record for the call what (see answerError).
func (e *executor) recordCall(err error, what string) error {
	err = answerError(err, what)
	var pe *wire.ProtocolError
	if errors.As(err, &pe) {
		e.mu.Lock()
		if e.err == nil {
			e.err = err
		}
		e.mu.Unlock()
	}
	return err
}

func (e *executor) hostError() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

func (e *executor) ToolSet(ctx context.Context) (port.ToolSet, error) {
	ts, err := e.client.ToolSet(ctx)
	return ts, e.record(err)
}

func (e *executor) Execute(ctx context.Context, call port.ToolCall, tc port.ToolContext) (port.ToolResult, error) {
	args, err := json.Marshal(call.Arguments)
	if err != nil {
		return port.ToolResult{}, err
	}
	res, err := e.client.Execute(ctx, wire.ExecuteParams{
		CallID: call.ToolCallID, ModelName: call.Name, Arguments: args,
		IdempotencyKey: tc.IdempotencyKey, TimeoutMs: tc.TimeoutMs,
		Context: wire.RunContext{RunID: tc.RunID, TaskID: tc.TaskID, Mode: tc.Mode},
	})
	if err == nil {
		err = contentError(call.ToolCallID, call.Name, res.Content)
	}
	if err = e.recordCall(err, fmt.Sprintf(" call %q (tool %s)", call.ToolCallID, call.Name)); err != nil {
		return port.ToolResult{}, err
	}
	return res, nil
}

// hostEnvironment turns the host's reported command environment into the
// prompt's hostEnvironment, or nil when the host reported none.
func hostEnvironment(env *prompt.HostEnvironment) *prompt.HostEnvironment {
	if env == nil {
		return nil
	}
	h := *env
	h.Command.ArgumentsPrefix = append([]string{}, env.Command.ArgumentsPrefix...)
	return &h
}
