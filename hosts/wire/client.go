package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/port"
)

// StartOptions configure a host process. All fields are optional.
type StartOptions struct {
	Dir string   // working directory of the host process
	Env []string // environment; nil inherits the harness's
	// Approver answers the host's approval/request. Without one (and
	// without a Handler) every approval request is answered with
	// ErrMethodNotFound, which a conformant host treats as a denial.
	Approver func(ctx context.Context, p ApprovalParams) (ApprovalDecision, error)
	// Handler answers the host's requests; it takes precedence over
	// Approver.
	Handler Handler
	// OnRecv and OnSend observe every message, as sent on the wire.
	OnRecv, OnSend func(line []byte)
	// CallTimeout bounds every call but tool/execute, which is bounded by
	// its own timeoutMs plus DispatchMargin. Zero means 30 s.
	CallTimeout time.Duration
	// Interpose, if set, wraps the host's pipes before the connection uses
	// them; the fault proxy attaches here. It receives the host's output
	// and input and returns what the harness reads and writes instead.
	Interpose func(hostOut io.Reader, hostIn io.WriteCloser) (io.Reader, io.WriteCloser)
}

// DispatchMargin is the headroom the harness gives a host beyond a call's
// own timeout before it declares the host hung (CONTRACTS §6.5).
const DispatchMargin = 60 * time.Second

// A Client is the harness's side of one host process.
type Client struct {
	cmd     *exec.Cmd
	conn    *Conn
	stdin   io.Closer
	stderr  *tail
	opts    StartOptions
	exited  chan struct{}
	waitErr error
	runErr  chan error
}

// Start starts the host process argv[0] with arguments argv[1:] and begins
// reading its output. An executable that cannot be found is reported as
// *exec.Error, which callers treat as an invocation error.
func Start(argv []string, opts StartOptions) (*Client, error) {
	if len(argv) == 0 {
		return nil, errors.New("wire: empty host command")
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// The harness reads the host's output through its own pipe: exec's
	// StdoutPipe would be closed by Wait while messages are still unread.
	stdout, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = w
	var out io.Reader = stdout
	var in io.WriteCloser = stdin
	if opts.Interpose != nil {
		out, in = opts.Interpose(stdout, stdin)
	}
	c := &Client{cmd: cmd, stdin: in, stderr: &tail{max: 8 << 10}, opts: opts, exited: make(chan struct{}), runErr: make(chan error, 1)}
	cmd.Stderr = c.stderr
	err = cmd.Start()
	w.Close()
	if err != nil {
		stdout.Close()
		return nil, err
	}
	c.conn = NewConn(NewFramer(out, in), ConnOptions{Handler: opts.handler(), Strict: true, OnRecv: opts.OnRecv, OnSend: opts.OnSend})
	go func() { c.runErr <- c.conn.Run(context.Background()) }()
	go func() {
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// Connect returns a client for a host that reads r and writes w in this
// process (tests, and the core's own unit tests using the reference host
// as a library). Closing the client closes w; the host should then end.
func Connect(r io.Reader, w io.WriteCloser, opts StartOptions) *Client {
	c := &Client{stdin: w, stderr: &tail{max: 8 << 10}, opts: opts, exited: make(chan struct{}), runErr: make(chan error, 1)}
	c.conn = NewConn(NewFramer(r, w), ConnOptions{Handler: opts.handler(), Strict: true, OnRecv: opts.OnRecv, OnSend: opts.OnSend})
	go func() {
		err := c.conn.Run(context.Background())
		c.runErr <- err
		close(c.exited)
	}()
	return c
}

func (o StartOptions) handler() Handler {
	if o.Handler != nil {
		return o.Handler
	}
	if o.Approver == nil {
		return nil
	}
	mux := NewMux()
	mux.Register(MethodApproval, HandlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		var p ApprovalParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &Error{Code: ErrInvalidParams.Code, Message: "invalid params: " + err.Error()}
		}
		return o.Approver(ctx, p)
	}))
	return mux
}

// Stderr returns the last 8 KiB the host wrote to its standard error.
func (c *Client) Stderr() string { return c.stderr.String() }

// Call sends one request, bounded by timeout, and decodes the validated
// result into out (if out is non-nil).
func (c *Client) Call(ctx context.Context, method string, params any, timeout time.Duration, out any) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	raw, err := c.conn.Call(ctx, method, params)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			return &ProtocolError{Method: method, Reason: fmt.Sprintf("no answer within %s", timeout)}
		}
		var pe *ProtocolError
		if errors.As(err, &pe) && pe.Reason == ReasonClosed {
			cp := *pe
			cp.Reason = c.exitReason()
			return &cp
		}
		return err
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &ProtocolError{Method: method, Reason: "result does not decode: " + err.Error(), Quote: quote(raw)}
	}
	return nil
}

func (c *Client) exitReason() string {
	select {
	case <-c.exited:
	case <-time.After(2 * time.Second):
		return ReasonClosed
	}
	msg := "the host exited without answering"
	if c.waitErr != nil {
		msg += " (" + c.waitErr.Error() + ")"
	}
	if s := c.Stderr(); s != "" {
		msg += "; stderr: " + quote([]byte(s))
	}
	return msg
}

func (c *Client) timeout() time.Duration {
	if c.opts.CallTimeout > 0 {
		return c.opts.CallTimeout
	}
	return 30 * time.Second
}

// Initialize sends initialize and returns the host's validated answer.
func (c *Client) Initialize(ctx context.Context, p InitializeParams) (InitializeResult, error) {
	var r InitializeResult
	err := c.Call(ctx, MethodInitialize, p, c.timeout(), &r)
	return r, err
}

// ToolSet asks for the host's active tool set.
func (c *Client) ToolSet(ctx context.Context) (port.ToolSet, error) {
	var r port.ToolSet
	err := c.Call(ctx, MethodToolsList, struct{}{}, c.timeout(), &r)
	return r, err
}

// RestoreToolSet asks the host to restore a checkpointed active tool set
// and returns the restored set. A name the host cannot activate or a
// different snapshot hash is a port failure (see AsPortError).
func (c *Client) RestoreToolSet(ctx context.Context, p RestoreParams) (port.ToolSet, error) {
	var r port.ToolSet
	err := c.Call(ctx, MethodToolsRestore, p, c.timeout(), &r)
	return r, err
}

// Execute runs one tool call on the host. Canceling ctx sends
// $/cancelRequest; the host then stops the call (killing a command's
// process group) and its late answer is dropped. A call whose side effects
// are unknown fails with ErrUnknownOutcome.
func (c *Client) Execute(ctx context.Context, p ExecuteParams) (port.ToolResult, error) {
	var r port.ToolResult
	timeout := time.Duration(p.TimeoutMs)*time.Millisecond + DispatchMargin
	err := c.Call(ctx, MethodExecute, p, timeout, &r)
	return r, err
}

// CaptureFingerprint captures the relevant-workspace fingerprint binding
// active and dirty (CONTRACTS §13.8 capture).
func (c *Client) CaptureFingerprint(ctx context.Context, active []ActiveFile, dirty *string) (WorkspaceState, error) {
	if active == nil {
		active = []ActiveFile{}
	}
	var r FingerprintResult
	err := c.Call(ctx, MethodFingerprint, FingerprintParams{Action: FingerprintCapture, ActiveFiles: active, DirtyStateSummary: dirty}, c.timeout(), &r)
	if err != nil {
		return WorkspaceState{}, err
	}
	if r.State == nil {
		return WorkspaceState{}, &ProtocolError{Method: MethodFingerprint, Pointer: "/result/state", Reason: "required field is missing"}
	}
	return *r.State, nil
}

// VerifyFingerprint re-reads the workspace and compares it with state
// (CONTRACTS §13.8 verify). It returns the current fingerprint and whether
// it matches.
func (c *Client) VerifyFingerprint(ctx context.Context, state WorkspaceState) (string, bool, error) {
	var r FingerprintResult
	err := c.Call(ctx, MethodFingerprint, FingerprintParams{Action: FingerprintVerify, State: &state}, c.timeout(), &r)
	if err != nil {
		return "", false, err
	}
	if r.Matches == nil {
		return "", false, &ProtocolError{Method: MethodFingerprint, Pointer: "/result/matches", Reason: "required field is missing"}
	}
	return r.CurrentFingerprint, *r.Matches, nil
}

// StorePut stores a document durably in the host's trusted store.
func (c *Client) StorePut(ctx context.Context, p StorePutParams) (StorePutResult, error) {
	var r StorePutResult
	err := c.Call(ctx, MethodStorePut, p, c.timeout(), &r)
	return r, err
}

// StoreGet returns the latest document of one kind of a run, or nil.
func (c *Client) StoreGet(ctx context.Context, p StoreGetParams) (json.RawMessage, error) {
	var r StoreGetResult
	if err := c.Call(ctx, MethodStoreGet, p, c.timeout(), &r); err != nil {
		return nil, err
	}
	if string(r.Document) == "null" {
		return nil, nil
	}
	return r.Document, nil
}

// StoreList returns every document of one kind of a run in put order.
func (c *Client) StoreList(ctx context.Context, p StoreListParams) ([]StoreEntry, error) {
	var r StoreListResult
	err := c.Call(ctx, MethodStoreList, p, c.timeout(), &r)
	return r.Entries, err
}

// TraceAppend appends one event to the host's trace.
func (c *Client) TraceAppend(ctx context.Context, e TraceEvent) error {
	return c.Call(ctx, MethodTraceAppend, TraceAppendParams{Event: e}, c.timeout(), nil)
}

// TraceFlush makes every appended event durable and returns how many
// events the durable trace holds.
func (c *Client) TraceFlush(ctx context.Context) (int, error) {
	var r TraceFlushResult
	err := c.Call(ctx, MethodTraceFlush, struct{}{}, c.timeout(), &r)
	return r.DurableEvents, err
}

// TraceList returns the durable trace of one run.
func (c *Client) TraceList(ctx context.Context, runID string) ([]TraceEvent, error) {
	var r TraceListResult
	err := c.Call(ctx, MethodTraceList, TraceListParams{RunID: runID}, c.timeout(), &r)
	return r.Events, err
}

// Close asks the host to shut down, closes its input and waits for it to
// exit; a host that does not exit within grace is killed with its process
// group. Close returns the shutdown call's error, if any.
func (c *Client) Close(grace time.Duration) error {
	var err error
	select {
	case <-c.conn.Done():
	default:
		err = c.Call(context.Background(), MethodShutdown, struct{}{}, grace, nil)
	}
	_ = c.stdin.Close()
	select {
	case <-c.exited:
	case <-time.After(grace):
		if c.cmd == nil {
			return err
		}
		killProcessGroup(c.cmd)
		<-c.exited
	}
	return err
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}
