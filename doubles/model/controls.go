package model

import (
	"fmt"
	"slices"
	"sync"
)

// Control actions (LAB §1.5).
const (
	ActionCancel = "cancel"
	ActionPause  = "pause"
)

// Control event kinds: the runtime event types that controls count (LAB
// §1.5). Every runtime model event counts, one per stream event, failed
// retry attempts and a double's canceled event included (DECISIONS 58).
const (
	OnModel           = "model"
	OnToolStart       = "tool_start"
	OnToolResult      = "tool_result"
	OnContextPressure = "context_pressure"
)

// Control is one declared control in the fixture shape (LAB §1.5): apply
// Action when the Occurrence-th runtime event of kind Event is observed.
// Occurrence 0 means 1.
type Control struct {
	Action     string `json:"action"`
	Event      string `json:"event"`
	Occurrence int    `json:"occurrence,omitempty"`
}

// Validate reports whether c is a well-formed control.
func (c Control) Validate() error {
	if c.Action != ActionCancel && c.Action != ActionPause {
		return fmt.Errorf("model: control action %q is not %q or %q", c.Action, ActionCancel, ActionPause)
	}
	if !slices.Contains(controlKinds, c.Event) {
		return fmt.Errorf("model: control event %q is not one of %q", c.Event, controlKinds)
	}
	if c.Occurrence < 0 {
		return fmt.Errorf("model: control occurrence %d is below 1", c.Occurrence)
	}
	return nil
}

func (c Control) occurrence() int { return max(1, c.Occurrence) }

var controlKinds = []string{OnModel, OnToolStart, OnToolResult, OnContextPressure}

// Firing is one control that fired. Index is the control's 1-based position
// in the declaration; Reason is the text to cancel or pause the run with.
type Firing struct {
	Index      int    `json:"index"`
	Action     string `json:"action"`
	Event      string `json:"event"`
	Occurrence int    `json:"occurrence"`
	Reason     string `json:"reason"`
}

// Controls applies declared controls to a stream of runtime events (LAB
// §3.7). It keeps one occurrence counter per control kind across every
// execution of a scenario; feed it every runtime event of every execution,
// in order. A control fires once, at the event that brings its kind's
// counter to its occurrence. It is safe for concurrent use.
type Controls struct {
	controls []Control

	mu      sync.Mutex
	counts  map[string]int
	fired   []bool
	firings []Firing
}

// NewControls returns a Controls for the declared controls, in declaration
// order. It fails if a control is malformed.
func NewControls(controls []Control) (*Controls, error) {
	for i, c := range controls {
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("model: control %d: %w", i+1, err)
		}
	}
	return &Controls{
		controls: slices.Clone(controls),
		counts:   map[string]int{},
		fired:    make([]bool, len(controls)),
	}, nil
}

// Observe counts one runtime event of type eventType and returns the
// controls that fire on it, in declaration order (usually none; several may
// fire on the same event). Event types other than the four control kinds
// are ignored. The caller applies each firing to the active run handle —
// cancel or pause with Firing.Reason; a firing counts even if no run is
// active.
func (c *Controls) Observe(eventType string) []Firing {
	if !slices.Contains(controlKinds, eventType) {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts[eventType]++
	n := c.counts[eventType]
	var out []Firing
	for i, ctl := range c.controls {
		if c.fired[i] || ctl.Event != eventType || ctl.occurrence() != n {
			continue
		}
		c.fired[i] = true
		f := Firing{Index: i + 1, Action: ctl.Action, Event: ctl.Event, Occurrence: n, Reason: reason(i+1, ctl.Action)}
		c.firings = append(c.firings, f)
		out = append(out, f)
	}
	return out
}

// reason is the original lab's cancel or pause reason for control i.
func reason(i int, action string) string {
	if action == ActionCancel {
		return fmt.Sprintf("Fixture control %d canceled the run.", i)
	}
	return fmt.Sprintf("Fixture control %d paused the run.", i)
}

// Firings returns every firing so far, in the order they fired.
func (c *Controls) Firings() []Firing {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.firings)
}

// FiredCount returns the number of controls that fired (LAB §5
// controlsFired).
func (c *Controls) FiredCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.firings)
}

// AllFired reports whether every declared control fired (LAB §4.16).
func (c *Controls) AllFired() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.firings) == len(c.controls)
}

// Unfired returns the 1-based indexes of the controls that have not fired,
// in declaration order.
func (c *Controls) Unfired() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []int
	for i, f := range c.fired {
		if !f {
			out = append(out, i+1)
		}
	}
	return out
}

// Count returns how many events of kind eventType were observed.
func (c *Controls) Count(eventType string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[eventType]
}
