package kit

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/galaxy-stack/conform/hosts/wire"
)

// An AnswerProbe looks at the run's workspace at the moment the host
// answers one call, before the harness reads that answer, and returns what
// it found wrong ("" when nothing). It must be bounded: the harness waits
// for it.
type AnswerProbe func(workspace string) string

// maxWatchedLine bounds the host line an answer watch holds back to look
// at; a longer line passes unobserved (the harness refuses it anyway).
const maxWatchedLine = 64 << 20

// An answerWatch sits between the harness and the host of one scenario
// run. It notes the request ID of the harness's tool/execute of callID
// and, when the host's answer to it comes through, runs probe before the
// harness receives the answer: the host has answered, the session is still
// open, and nothing the harness does after the answer (the rest of the
// run, shutdown, its own cleanup) has happened yet.
type answerWatch struct {
	callID string
	probe  AnswerProbe

	mu        sync.Mutex
	line      []byte
	workspace string
	reqID     string
	answered  bool
	finding   string
}

// interpose wraps a host's pipes (lab.Options.Interpose).
func (w *answerWatch) interpose(hostOut io.Reader, hostIn io.WriteCloser) (io.Reader, io.WriteCloser) {
	return &answerReader{src: hostOut, w: w, buf: make([]byte, 64*1024)}, &requestWriter{WriteCloser: hostIn, w: w}
}

// result returns whether the answer came through and what the probe found.
func (w *answerWatch) result() (bool, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.answered, w.finding
}

// sent looks at one message the harness sends.
func (w *answerWatch) sent(line []byte) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			WorkspaceRoot string `json:"workspaceRoot"`
			CallID        string `json:"callId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case msg.Method == wire.MethodInitialize:
		w.workspace = msg.Params.WorkspaceRoot
	case msg.Method == wire.MethodExecute && msg.Params.CallID == w.callID && w.reqID == "":
		w.reqID = string(msg.ID)
	}
}

// received looks at one message of the host's; on the answer to the
// watched call it runs the probe, holding the answer back meanwhile.
func (w *answerWatch) received(line []byte) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Method != "" || len(msg.ID) == 0 {
		return
	}
	w.mu.Lock()
	fire := !w.answered && w.reqID != "" && string(msg.ID) == w.reqID
	if fire {
		w.answered = true
	}
	ws := w.workspace
	w.mu.Unlock()
	if !fire {
		return
	}
	finding := w.probe(ws)
	w.mu.Lock()
	w.finding = finding
	w.mu.Unlock()
}

// A requestWriter passes the harness's messages to the host, showing each
// complete line to the watch first.
type requestWriter struct {
	io.WriteCloser
	w *answerWatch
}

func (r *requestWriter) Write(p []byte) (int, error) {
	r.w.mu.Lock()
	r.w.line = append(r.w.line, p...)
	var lines [][]byte
	for {
		i := bytes.IndexByte(r.w.line, '\n')
		if i < 0 {
			break
		}
		lines = append(lines, bytes.Clone(r.w.line[:i]))
		r.w.line = r.w.line[i+1:]
	}
	r.w.mu.Unlock()
	for _, l := range lines {
		r.w.sent(l)
	}
	return r.WriteCloser.Write(p)
}

// An answerReader passes the host's output to the harness whole lines at
// a time, showing each to the watch before the harness can read it.
type answerReader struct {
	src     io.Reader
	w       *answerWatch
	buf     []byte
	pending []byte
	ready   []byte
	err     error
}

func (r *answerReader) Read(p []byte) (int, error) {
	for len(r.ready) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		n, err := r.src.Read(r.buf)
		r.pending = append(r.pending, r.buf[:n]...)
		if i := bytes.LastIndexByte(r.pending, '\n'); i >= 0 {
			for _, l := range bytes.Split(r.pending[:i], []byte{'\n'}) {
				r.w.received(l)
			}
			r.ready = append(r.ready, r.pending[:i+1]...)
			r.pending = append([]byte(nil), r.pending[i+1:]...)
		} else if len(r.pending) > maxWatchedLine {
			r.ready, r.pending = r.pending, nil
		}
		if err != nil {
			r.err = err
			r.ready = append(r.ready, r.pending...)
			r.pending = nil
		}
	}
	n := copy(p, r.ready)
	r.ready = r.ready[n:]
	return n, nil
}
