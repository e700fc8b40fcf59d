package jsonrpc

import (
	"fmt"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
)

// DefaultWriteStall is how long a Conn lets one write to the peer block
// before it declares that the peer stopped reading its input.
const DefaultWriteStall = 10 * time.Second

// writeQueueLen bounds the messages a Conn holds for a peer that is slow to
// read. A peer that lets more pile up has stopped reading.
const writeQueueLen = 256

// ReasonWriteFailed starts the reason of the *wire.ProtocolError a Conn
// breaks with when a write to the peer fails.
const ReasonWriteFailed = "the host stopped reading its input: "

// A writer owns the writing side of a Conn: callers enqueue messages and
// never block on the peer; one goroutine writes them in order. A write that
// blocks longer than stall, or a queue that overflows, breaks the
// connection with a wire.ProtocolError saying that the host stopped reading its
// input.
type writer struct {
	c     *Conn
	stall time.Duration
	queue chan writeItem
	once  sync.Once
}

// A writeItem is one message, or (msg == nil) a flush marker whose done is
// closed when every message queued before it has been written.
type writeItem struct {
	msg  []byte
	done chan struct{}
}

// newWriter returns the writer of c. A negative stall makes it patient, as
// a host's side of a connection is: enqueue then waits for room instead of
// failing, and no write is ever declared stalled.
func newWriter(c *Conn, stall time.Duration) *writer {
	if stall == 0 {
		stall = DefaultWriteStall
	}
	return &writer{c: c, stall: stall, queue: make(chan writeItem, writeQueueLen)}
}

func (w *writer) start() { w.once.Do(func() { go w.loop() }) }

// enqueue queues msg without blocking. It fails the connection when the
// queue is full.
func (w *writer) enqueue(msg []byte) error {
	select {
	case <-w.c.done:
		return w.c.Err()
	default:
	}
	if w.stall < 0 {
		select {
		case w.queue <- writeItem{msg: msg}:
			return nil
		case <-w.c.done:
			return w.c.Err()
		}
	}
	select {
	case w.queue <- writeItem{msg: msg}:
		return nil
	default:
		return w.c.fail(&wire.ProtocolError{Reason: fmt.Sprintf("the host stopped reading its input (%d messages waiting)", writeQueueLen)})
	}
}

// flush waits until everything queued so far is written, the connection
// breaks, or a write stalls past the bound.
func (w *writer) flush() {
	done := make(chan struct{})
	select {
	case w.queue <- writeItem{done: done}:
	case <-w.c.done:
		return
	}
	w.start()
	select {
	case <-done:
	case <-w.c.done:
	}
}

func (w *writer) loop() {
	for {
		var it writeItem
		select {
		case it = <-w.queue:
		case <-w.c.done:
			return
		}
		if it.msg == nil {
			close(it.done)
			continue
		}
		var timer *time.Timer
		if w.stall > 0 {
			timer = time.AfterFunc(w.stall, func() {
				w.c.fail(&wire.ProtocolError{Reason: fmt.Sprintf("the host stopped reading its input (a write blocked for %s)", w.stall)})
			})
		}
		err := w.c.f.Write(it.msg)
		if timer != nil {
			timer.Stop()
		}
		if err != nil {
			w.c.fail(&wire.ProtocolError{Reason: ReasonWriteFailed + err.Error()})
			return
		}
	}
}
