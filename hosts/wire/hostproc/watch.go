package hostproc

import (
	"bytes"
	"strconv"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
)

// A watch is the framer of a client's connection, wrapped to remember what
// the harness needs to say about a call the host never answered: when the
// host last wrote a line and how many it wrote, and when each request's
// bytes were handed to the host's input pipe. Its reader and writer sides
// are each called from one goroutine of the connection (see
// [jsonrpc.Framer]); the mutex orders them with the diagnosis.
type watch struct {
	f   jsonrpc.Framer
	now func() time.Time

	mu        sync.Mutex
	lines     int64     // lines read from the host
	lastLine  time.Time // when the last of them was read
	readSince time.Time // zero while a Read is under way; else when the last Read returned
	// writing is the write under way (start zero when none).
	writing sentWrite
	// sent are the last requests written, oldest first.
	sent [sentKeep]sentWrite
	next int // index in sent of the next record
}

// sentKeep is how many written requests a watch remembers: calls in flight
// at once are few, so an unanswered request is among the last written.
const sentKeep = 32

// A sentWrite is one message the writer handed to the host's input.
type sentWrite struct {
	id         int64     // the request's id; 0 for any other message
	start, end time.Time // when the write began and returned
	lines      int64     // lines read from the host when it returned
}

func newWatch(f jsonrpc.Framer) *watch {
	return &watch{f: f, now: time.Now, readSince: time.Now()}
}

// Read reads the next line from the host, counting it.
func (w *watch) Read() ([]byte, error) {
	w.mu.Lock()
	w.readSince = time.Time{}
	w.mu.Unlock()
	line, err := w.f.Read()
	now := w.now()
	w.mu.Lock()
	w.readSince = now
	if err == nil {
		w.lines++
		w.lastLine = now
	}
	w.mu.Unlock()
	return line, err
}

// Write hands msg to the host's input, recording when.
func (w *watch) Write(msg []byte) error {
	id := requestID(msg)
	w.mu.Lock()
	w.writing = sentWrite{id: id, start: w.now()}
	w.mu.Unlock()
	err := w.f.Write(msg)
	w.mu.Lock()
	done := w.writing
	w.writing = sentWrite{}
	if err == nil && id != 0 {
		done.end, done.lines = w.now(), w.lines
		w.sent[w.next] = done
		w.next = (w.next + 1) % sentKeep
	}
	w.mu.Unlock()
	return err
}

// requestPrefix starts every request and response the harness writes
// (jsonrpc.EncodeMessage writes the envelope's members in order).
var requestPrefix = []byte(`{"jsonrpc":"2.0","id":`)

// requestID returns the numeric id of msg when it is a request the
// harness sends (its id is followed by its method), else 0.
func requestID(msg []byte) int64 {
	rest, ok := bytes.CutPrefix(msg, requestPrefix)
	if !ok {
		return 0
	}
	i := 0
	for i < len(rest) && i < 20 && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || !bytes.HasPrefix(rest[i:], []byte(`,"method":`)) {
		return 0
	}
	id, err := strconv.ParseInt(string(rest[:i]), 10, 64)
	if err != nil {
		return 0
	}
	return id
}

// A mark is where the host's output stood when a call began.
type mark struct {
	at    time.Time
	lines int64
}

func (w *watch) mark() mark {
	w.mu.Lock()
	defer w.mu.Unlock()
	return mark{at: w.now(), lines: w.lines}
}

// A wireState is what a watch knows of one request and of the host's output,
// at the moment a call is declared unanswered.
type wireState struct {
	id  int64 // the request's
	now time.Time
	// written is the request's completed write (end zero when it was not
	// seen written); blocked is the write under way, if any.
	written, blocked sentWrite
	// lines and lastLine are the lines read from the host and when the
	// last of them was; readBusy is when the reader last returned a line
	// while it is not reading now (zero while it waits for output).
	lines    int64
	lastLine time.Time
	readBusy time.Time
	// laterWritten is set when a later request is among those remembered
	// written: the request itself was written before them.
	laterWritten bool
}

func (w *watch) state(id int64) wireState {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := wireState{id: id, now: w.now(), blocked: w.writing, lines: w.lines, lastLine: w.lastLine, readBusy: w.readSince}
	for _, r := range w.sent {
		if r.id == id && !r.end.IsZero() {
			s.written = r
		}
		if r.id > id && !r.end.IsZero() {
			s.laterWritten = true
		}
	}
	return s
}
