package model_test

import (
	"context"
	"encoding/json"

	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/doubles/model"
)

const identityJSON = `{"baseUrl":"fixture://local","model":"scripted-v1","provider":"galaxy-fixture","runtimeVersion":"1"}`

func ptr[T any](v T) *T { return &v }

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}

func canceledContext() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// request builds a round request with a system and a user message and the
// named tools offered.
func request(task string, tools ...string) port.RoundRequest {
	req := port.RoundRequest{
		Messages: []port.Message{
			{Role: "system", Content: "You are a coding agent."},
			{Role: "user", Content: task},
		},
		Tools: []port.ToolDefinition{},
	}
	for _, name := range tools {
		req.Tools = append(req.Tools, port.ToolDefinition{Type: "function", Function: port.FunctionSpec{
			Name: name, Description: "tool " + name,
			Parameters: map[string]any{"type": "object", "properties": map[string]any{}},
		}})
	}
	return req
}

// stream plays one round and fails the spec on a transport error.
func stream(m *model.Scripted, req port.RoundRequest) []port.RoundEvent {
	events, err := m.StreamRound(context.Background(), req)
	Expect(err).NotTo(HaveOccurred())
	return events
}
