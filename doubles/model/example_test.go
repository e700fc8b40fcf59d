package model_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/doubles/model"
)

func ExampleScripted() {
	m := model.NewScripted([]model.Round{
		model.ErrorRound("RATE_LIMITED", "temporary quota", true),
		model.TextRound("Done."),
	}, model.WithTokenCountSteps(model.Count(500)))
	ctx := context.Background()
	req := port.RoundRequest{Messages: []port.Message{{Role: "user", Content: "say done"}}}

	count, _ := m.CountTokens(ctx, req.Messages, req.Tools)
	fmt.Println(count.Tokens, count.Source)
	for range 2 {
		events, _ := m.StreamRound(ctx, req)
		var kinds []string
		for _, e := range events {
			kinds = append(kinds, e.Type)
		}
		fmt.Println(strings.Join(kinds, " "))
	}
	fmt.Println(m.Consumed())
	// Output:
	// 500 provider
	// started error
	// started content usage done
	// true
}

func ExampleControls() {
	c, _ := model.NewControls([]model.Control{{Action: model.ActionPause, Event: model.OnToolStart, Occurrence: 2}})
	for _, event := range []string{"model", "tool_start", "tool_result", "tool_start"} {
		for _, f := range c.Observe(event) {
			fmt.Println(f.Action, "on", event, "-", f.Reason)
		}
	}
	fmt.Println(c.AllFired())
	// Output:
	// pause on tool_start - Fixture control 1 paused the run.
	// true
}
