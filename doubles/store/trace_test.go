package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/doubles/store"
)

func event(execution string, seq int64) port.TraceEvent {
	return port.TraceEvent{
		EventID:     fmt.Sprintf("run-1:%s:%d", execution, seq),
		ExecutionID: execution,
		Kind:        port.TraceToolCall,
		Payload:     json.RawMessage(`{"toolCallId":"c1"}`),
		RunID:       "run-1",
		Sequence:    seq,
		TaskID:      "task-1",
		Timestamp:   "1970-01-01T00:00:00.000Z",
	}
}

func portError(code, message string) *port.Error {
	return &port.Error{Code: code, Message: message}
}

var _ = Describe("Trace", func() {
	var t *store.Trace

	BeforeEach(func() { t = store.NewTrace() })

	It("records events in order and counts flushes", func() {
		Expect(t.Emit(ctx, event("execution-1", 1))).To(Succeed())
		Expect(t.Emit(ctx, event("execution-1", 2))).To(Succeed())
		Expect(t.Emit(ctx, event("execution-2", 1))).To(Succeed(), "sequences are per execution")
		Expect(t.Flush(ctx)).To(Succeed())
		Expect(t.Flush(ctx)).To(Succeed())
		Expect(t.Events()).To(Equal([]port.TraceEvent{event("execution-1", 1), event("execution-1", 2), event("execution-2", 1)}))
		Expect(t.Kinds()).To(Equal([]string{"tool_call", "tool_call", "tool_call"}))
		Expect(t.FlushCount()).To(Equal(2))
	})

	It("copies events on the way in and out", func() {
		e := event("execution-1", 1)
		Expect(t.Emit(ctx, e)).To(Succeed())
		e.Payload[2] = 'X'
		got := t.Events()
		Expect(string(got[0].Payload)).To(Equal(`{"toolCallId":"c1"}`))
		got[0].Payload[2] = 'Y'
		Expect(string(t.Events()[0].Payload)).To(Equal(`{"toolCallId":"c1"}`))
	})

	DescribeTable("rejects invalid events without recording them",
		func(change func(*port.TraceEvent), want *port.Error) {
			e := event("execution-1", 1)
			change(&e)
			Expect(t.Emit(ctx, e)).To(Equal(want))
			Expect(t.Events()).To(BeEmpty())
		},
		Entry("empty event ID", func(e *port.TraceEvent) { e.EventID = "" }, portError("INVALID_INPUT", "Trace event id, sequence, or timestamp is invalid.")),
		Entry("empty execution ID", func(e *port.TraceEvent) { e.ExecutionID = "" }, portError("INVALID_INPUT", "Trace event id, sequence, or timestamp is invalid.")),
		Entry("negative sequence", func(e *port.TraceEvent) { e.Sequence = -1 }, portError("INVALID_INPUT", "Trace event id, sequence, or timestamp is invalid.")),
		Entry("bad timestamp", func(e *port.TraceEvent) { e.Timestamp = "yesterday" }, portError("INVALID_INPUT", "Trace event id, sequence, or timestamp is invalid.")),
		Entry("array payload", func(e *port.TraceEvent) { e.Payload = json.RawMessage(`[1]`) }, portError("INVALID_INPUT", "Trace payload must be a JSON object.")),
		Entry("missing payload", func(e *port.TraceEvent) { e.Payload = nil }, portError("INVALID_INPUT", "Trace payload must be a JSON object.")),
		Entry("broken payload", func(e *port.TraceEvent) { e.Payload = json.RawMessage(`{"a":`) }, portError("INVALID_INPUT", "Trace payload must be a JSON object.")),
	)

	It("rejects a repeated event ID and a sequence that does not increase", func() {
		Expect(t.Emit(ctx, event("execution-1", 2))).To(Succeed())
		Expect(t.Emit(ctx, event("execution-1", 2))).To(Equal(portError("CONFLICT", "Trace event id 'run-1:execution-1:2' already exists.")))
		stale := event("execution-1", 1)
		stale.EventID = "fresh-id"
		Expect(t.Emit(ctx, stale)).To(Equal(portError("CONFLICT", "Trace sequences must increase monotonically within one execution.")))
		same := event("execution-1", 2)
		same.EventID = "another-id"
		Expect(t.Emit(ctx, same)).To(Equal(portError("CONFLICT", "Trace sequences must increase monotonically within one execution.")), "an equal sequence does not increase")
		Expect(t.Events()).To(HaveLen(1))
	})

	It("fails with CANCELED or DEADLINE_EXCEEDED when the context is done", func() {
		Expect(t.Emit(canceled(), event("execution-1", 1))).To(Equal(portError("CANCELED", "Trace emission canceled.")))
		Expect(t.Flush(canceled())).To(Equal(portError("CANCELED", "Trace flush canceled.")))
		expired, cancel := context.WithDeadline(ctx, time.Unix(0, 0))
		DeferCleanup(cancel)
		Expect(t.Emit(expired, event("execution-1", 1))).To(Equal(portError("DEADLINE_EXCEEDED", "Trace emission deadline elapsed.")))
		Expect(t.Flush(expired)).To(Equal(portError("DEADLINE_EXCEEDED", "Trace flush deadline elapsed.")))
		Expect(t.Events()).To(BeEmpty())
		Expect(t.FlushCount()).To(Equal(0))
	})
})

func canceled() context.Context {
	c, cancel := context.WithCancel(context.Background())
	cancel()
	return c
}
