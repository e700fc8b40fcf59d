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

func (e *executor) record(err error) {
	var pe *wire.ProtocolError
	if errors.As(err, &pe) {
		e.mu.Lock()
		if e.err == nil {
			e.err = err
		}
		e.mu.Unlock()
	}
}

func (e *executor) hostError() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

func (e *executor) ToolSet(ctx context.Context) (port.ToolSet, error) {
	ts, err := e.client.ToolSet(ctx)
	e.record(err)
	return ts, err
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
	e.record(err)
	return res, err
}

// hostEnvironment turns the host's reported command environment into the
// prompt's hostEnvironment, or nil when the host reported none.
func hostEnvironment(env *wire.CommandEnvironment) *prompt.HostEnvironment {
	if env == nil {
		return nil
	}
	h := *env
	h.Command.ArgumentsPrefix = append([]string{}, env.Command.ArgumentsPrefix...)
	return &h
}
