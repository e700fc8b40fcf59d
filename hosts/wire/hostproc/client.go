package hostproc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"crypto/rand"
	"encoding/hex"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/internal/redact"
)

// StartOptions configure a host process. All fields are optional.
type StartOptions struct {
	Dir string // working directory of the host process
	// Env, if not nil, is the host's whole environment (plus TokenEnv),
	// overriding the default below; Home and PassEnv are then ignored.
	// By default a host inherits only the variables of DefaultEnv, HOME
	// and TMPDIR pointing into Home, and the names in PassEnv.
	Env []string
	// Home is the host's home directory; TMPDIR is its "tmp"
	// subdirectory, made by Start. Empty means a fresh temporary
	// directory that Close removes.
	Home string
	// PassEnv names further variables the host inherits from the harness
	// (the CLI's --host-env NAME); a name ending in "*" is a prefix.
	PassEnv []string
	// MaxMessage bounds one message from the host, in bytes; zero means
	// MaxLine (64 MiB). A longer line breaks the protocol.
	MaxMessage int
	// Approver answers the host's approval/request. Without one (and
	// without a Handler) every approval request is answered with
	// ErrMethodNotFound, which a conformant host treats as a denial.
	Approver func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error)
	// Handler answers the host's requests; it takes precedence over
	// Approver.
	Handler jsonrpc.Handler
	// OnRecv and OnSend observe every message, as sent on the wire.
	OnRecv, OnSend func(line []byte)
	// CallTimeout bounds every call but tool/execute, which is bounded by
	// its own timeoutMs plus ExecuteMargin. Zero means 30 s.
	CallTimeout time.Duration
	// ExecuteMargin is the headroom beyond a tool/execute's timeoutMs;
	// zero means DispatchMargin.
	ExecuteMargin time.Duration
	// WriteStall bounds how long a write to the host may block before the
	// host is declared to have stopped reading its input; zero means
	// DefaultWriteStall.
	WriteStall time.Duration
	// Interpose, if set, wraps the host's pipes before the connection uses
	// them; the fault proxy attaches here. It receives the host's output
	// and input and returns what the harness reads and writes instead.
	Interpose func(hostOut io.Reader, hostIn io.WriteCloser) (io.Reader, io.WriteCloser)
}

// DispatchMargin is the headroom the harness gives a host beyond a call's
// own timeout before it declares the host hung (CONTRACTS §6.5).
const DispatchMargin = 60 * time.Second

// Bounds on the requests a host may send the harness on one connection
// (PROTOCOL.md, "Limits"). A request over either breaks the protocol.
const (
	MaxHostInFlight = 8
	MaxHostRequests = 10000
)

// exitGrace is how long a client waits, once the host has exited, for the
// rest of its output and standard error before it closes them.
const exitGrace = time.Second

// A Client is the harness's side of one host process.
//
// A client supervises the host's process tree: when the host exits, or
// Close or KillAll ends it, the host's process group is killed and, on
// Linux, so is every other process of its tree (found by parent links and
// by the TokenEnv value in /proc/*/environ, so setsid children are found
// too); those re-parented to conform are reaped when [Supervise] was
// called. On macOS and the BSDs only the process group is killed: a
// descendant that left it (setsid) survives. On Windows only the host
// process itself is killed (no job object).
type Client struct {
	cmd     *exec.Cmd
	conn    *jsonrpc.Conn
	stdin   io.Closer
	stderr  *tail
	opts    StartOptions
	exited  chan struct{} // closed when the host has exited and its tree and pipes are dealt with
	waited  chan struct{} // closed as soon as the host process has exited
	waitErr error
	runErr  chan error

	token   string
	home    string // removed by Close when ownHome
	ownHome bool
	errDone chan struct{} // closed when the stderr copy ends

	mu        sync.Mutex
	incidents []string
	executing int  // tool/execute calls in flight
	shutdown  bool // the host has answered shutdown
	wroteLate bool
	known     []proc // the host's tree seen before shutdown
	// outputGone is set once the host was seen to close its output and
	// not exit within the wait: later calls fail at once.
	outputGone atomic.Bool

	closeOnce sync.Once
	closeErr  error
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
	c := &Client{stderr: &tail{max: stderrKeep}, opts: opts, exited: make(chan struct{}), runErr: make(chan error, 1),
		token: newToken(), home: opts.Home, errDone: make(chan struct{}), waited: make(chan struct{})}
	if opts.Env == nil {
		if c.home == "" {
			if c.home, err = os.MkdirTemp("", "conform-host-home-"); err != nil {
				return nil, fmt.Errorf("wire: cannot make the host's home directory: %w", err)
			}
			c.ownHome = true
		}
		if err := os.MkdirAll(filepath.Join(c.home, "tmp"), 0o700); err != nil {
			c.removeHome()
			return nil, fmt.Errorf("wire: cannot make the host's temporary directory: %w", err)
		}
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Dir = opts.Dir
	cmd.Env = hostEnv(opts, c.home, c.token)
	cmd.WaitDelay = exitGrace
	setProcessGroup(cmd)
	c.cmd = cmd
	stdin, err := cmd.StdinPipe()
	if err != nil {
		c.removeHome()
		return nil, err
	}
	// The harness reads the host's output and standard error through its
	// own pipes: exec's StdoutPipe would be closed by Wait while messages
	// are still unread, and exec's copy of a Stderr writer would make Wait
	// wait for every process holding the pipe (a setsid grandchild).
	stdout, w, err := os.Pipe()
	if err != nil {
		c.removeHome()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		stdout.Close()
		w.Close()
		c.removeHome()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = w, errW
	var out io.Reader = eofOnClose{stdout}
	var in io.WriteCloser = stdin
	if opts.Interpose != nil {
		out, in = opts.Interpose(out, stdin)
	}
	c.stdin = in
	err = cmd.Start()
	w.Close()
	errW.Close()
	if err != nil {
		stdout.Close()
		errR.Close()
		c.removeHome()
		return nil, err
	}
	register(c)
	go c.stderr.drain(errR, c.errDone)
	c.conn = jsonrpc.NewConn(jsonrpc.NewLineFramer(out, in).Limit(opts.MaxMessage), c.connOptions())
	go func() { c.runErr <- c.conn.Run(context.Background()) }()
	go func() {
		c.waitErr = cmd.Wait()
		close(c.waited)
		// The session ends when the host exits: its tree goes with it.
		killProcessGroup(cmd)
		c.mu.Lock()
		known := c.known
		c.mu.Unlock()
		if n := killProcs(cmd.Process.Pid, c.token, known); n > 0 {
			c.incident(fmt.Sprintf("killed %d process(es) the host left running when it exited", n))
		}
		// What the host wrote before exiting is still read; a pipe some
		// unkillable process holds open is closed after the grace.
		select {
		case <-c.conn.Done():
		case <-time.After(exitGrace):
			stdout.Close()
		}
		select {
		case <-c.errDone:
		case <-time.After(exitGrace):
			errR.Close()
			<-c.errDone
		}
		close(c.exited)
	}()
	return c, nil
}

// Connect returns a client for a host that reads r and writes w in this
// process (tests, and the core's own unit tests using the reference host
// as a library). Closing the client closes w; the host should then end.
func Connect(r io.Reader, w io.WriteCloser, opts StartOptions) *Client {
	c := &Client{stdin: w, stderr: &tail{max: stderrKeep}, opts: opts, exited: make(chan struct{}), runErr: make(chan error, 1)}
	c.conn = jsonrpc.NewConn(jsonrpc.NewLineFramer(r, w).Limit(opts.MaxMessage), c.connOptions())
	go func() {
		err := c.conn.Run(context.Background())
		c.runErr <- err
		close(c.exited)
	}()
	return c
}

func (c *Client) connOptions() jsonrpc.ConnOptions {
	return jsonrpc.ConnOptions{Handler: c.opts.handler(), Strict: true, OnRecv: c.onRecv, OnSend: c.opts.OnSend,
		WriteStall: c.opts.WriteStall, MaxInFlight: MaxHostInFlight, MaxRequests: MaxHostRequests,
		Admit: c.admit, OnAnswered: c.answered}
}

// admit refuses an approval/request while no tool/execute is in flight:
// the host asks about a call the harness did not make.
func (c *Client) admit(method string) error {
	if method != wire.MethodApproval {
		return nil
	}
	c.mu.Lock()
	n := c.executing
	c.mu.Unlock()
	if n == 0 {
		msg := fmt.Sprintf("it sent %q while no %q was in flight", wire.MethodApproval, wire.MethodExecute)
		c.incident("the host " + msg[3:])
		return errors.New(msg)
	}
	return nil
}

func (c *Client) answered(method string) {
	if method == wire.MethodShutdown {
		c.mu.Lock()
		c.shutdown = true
		c.mu.Unlock()
	}
}

func (c *Client) onRecv(line []byte) {
	c.mu.Lock()
	late := c.shutdown && !c.wroteLate
	if late {
		c.wroteLate = true
	}
	c.mu.Unlock()
	if late {
		c.incident("the host wrote after answering shutdown: " + strconv.Quote(wire.Quote(line)))
	}
	if c.opts.OnRecv != nil {
		c.opts.OnRecv(line)
	}
}

func (c *Client) incident(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.incidents = append(c.incidents, redact.String(s))
}

// Incidents returns, as human sentences in the order they happened, what
// the harness had to do about the host beyond the protocol: kill it, kill
// the processes it left behind, ignore output it wrote after answering
// shutdown, refuse an approval/request it sent while no tool/execute was
// in flight. The ones that fail the host are also returned by Close (a
// host that had to be killed) or break the connection (an unsolicited
// approval/request).
func (c *Client) Incidents() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.incidents)
}

// Token returns the value of TokenEnv in the environment of the host's
// processes ("" for a client made by Connect).
func (c *Client) Token() string { return c.token }

// PID returns the host process's ID, or 0 for a client made by Connect.
func (c *Client) PID() int {
	if c.cmd == nil || c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (c *Client) removeHome() {
	if c.ownHome && c.home != "" {
		_ = os.RemoveAll(c.home)
	}
}

// eofOnClose reads a pipe the client may close under a blocked read; that
// read then ends the input like the host's own end of output.
type eofOnClose struct{ f *os.File }

func (e eofOnClose) Read(p []byte) (int, error) {
	n, err := e.f.Read(p)
	if errors.Is(err, os.ErrClosed) {
		err = io.EOF
	}
	return n, err
}

func (o StartOptions) handler() jsonrpc.Handler {
	if o.Handler != nil {
		return o.Handler
	}
	if o.Approver == nil {
		return nil
	}
	return jsonrpc.HandlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		if method != wire.MethodApproval {
			return nil, &wire.Error{Code: wire.ErrMethodNotFound.Code, Message: "method not found: " + method}
		}
		var p wire.ApprovalParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &wire.Error{Code: wire.ErrInvalidParams.Code, Message: "invalid params: " + err.Error()}
		}
		return o.Approver(ctx, p)
	})
}

// Stderr returns the last 8 KiB the host wrote to its standard error,
// with secrets redacted (see package internal/redact).
func (c *Client) Stderr() string { return c.stderr.String() }

// Call sends one request, bounded by timeout, and decodes the validated
// result into out (if out is non-nil).
func (c *Client) Call(ctx context.Context, method string, params any, timeout time.Duration, out any) error {
	return c.call(ctx, method, "", params, timeout, out)
}

// call is Call with what, a description of the call (` (callId "w1", model
// name "write_file")`) for the error that says it hung.
func (c *Client) call(ctx context.Context, method, what string, params any, timeout time.Duration, out any) error {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	raw, err := c.conn.Call(tctx, method, params)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && tctx.Err() != nil && ctx.Err() == nil {
			return &wire.ProtocolError{Method: method, Reason: fmt.Sprintf("no answer to %q%s within %s", method, what, timeout)}
		}
		var pe *wire.ProtocolError
		if errors.As(err, &pe) && (pe.Reason == jsonrpc.ReasonClosed || strings.HasPrefix(pe.Reason, jsonrpc.ReasonWriteFailed)) {
			if r := c.exitReason(); r != jsonrpc.ReasonClosed || pe.Reason == jsonrpc.ReasonClosed {
				cp := *pe
				cp.Reason = r
				return &cp
			}
		}
		var rpc *wire.Error
		if errors.As(err, &rpc) && err == error(rpc) {
			return &wire.MethodError{Method: method, Err: rpc}
		}
		return err
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &wire.ProtocolError{Method: method, Reason: "result does not decode: " + err.Error(), Quote: wire.Quote(raw)}
	}
	return nil
}

func (c *Client) exitReason() string {
	wait := 2 * time.Second
	if c.outputGone.Load() {
		wait = 0 // already waited once: a host that closed its output and lives on
	}
	select {
	case <-c.exited:
	case <-time.After(wait):
		c.outputGone.Store(true)
		return jsonrpc.ReasonClosed
	}
	msg := "the host exited without answering"
	if c.waitErr != nil {
		msg += " (" + c.waitErr.Error() + ")"
	}
	if s := c.Stderr(); s != "" {
		msg += "; stderr: " + wire.Quote([]byte(s))
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
func (c *Client) Initialize(ctx context.Context, p wire.InitializeParams) (wire.InitializeResult, error) {
	var r wire.InitializeResult
	err := c.Call(ctx, wire.MethodInitialize, p, c.timeout(), &r)
	return r, err
}

// ToolSet asks for the host's active tool set.
func (c *Client) ToolSet(ctx context.Context) (port.ToolSet, error) {
	var r port.ToolSet
	err := c.Call(ctx, wire.MethodToolsList, struct{}{}, c.timeout(), &r)
	return r, err
}

// RestoreToolSet asks the host to restore a checkpointed active tool set
// and returns the restored set. A name the host cannot activate or a
// different snapshot hash is a port failure (see AsPortError).
func (c *Client) RestoreToolSet(ctx context.Context, p wire.RestoreParams) (port.ToolSet, error) {
	var r port.ToolSet
	err := c.Call(ctx, wire.MethodToolsRestore, p, c.timeout(), &r)
	return r, err
}

// Execute runs one tool call on the host. Canceling ctx sends
// $/cancelRequest; the host then stops the call (killing a command's
// process group) and its late answer is dropped. A call whose side effects
// are unknown fails with ErrUnknownOutcome.
func (c *Client) Execute(ctx context.Context, p wire.ExecuteParams) (port.ToolResult, error) {
	var r port.ToolResult
	margin := c.opts.ExecuteMargin
	if margin <= 0 {
		margin = DispatchMargin
	}
	timeout := time.Duration(p.TimeoutMs)*time.Millisecond + margin
	c.mu.Lock()
	c.executing++
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.executing--
		c.mu.Unlock()
	}()
	what := fmt.Sprintf(" (callId %q, model name %q)", p.CallID, p.ModelName)
	err := c.call(ctx, wire.MethodExecute, what, p, timeout, &r)
	return r, err
}

// CaptureFingerprint captures the relevant-workspace fingerprint binding
// active and dirty (CONTRACTS §13.8 capture).
func (c *Client) CaptureFingerprint(ctx context.Context, active []wire.ActiveFile, dirty *string) (wire.WorkspaceState, error) {
	if active == nil {
		active = []wire.ActiveFile{}
	}
	var r wire.FingerprintResult
	err := c.Call(ctx, wire.MethodFingerprint, wire.FingerprintParams{Action: wire.FingerprintCapture, ActiveFiles: active, DirtyStateSummary: dirty}, c.timeout(), &r)
	if err != nil {
		return wire.WorkspaceState{}, err
	}
	if r.State == nil {
		return wire.WorkspaceState{}, &wire.ProtocolError{Method: wire.MethodFingerprint, Pointer: "/result/state", Reason: "required field is missing"}
	}
	return *r.State, nil
}

// VerifyFingerprint re-reads the workspace and compares it with state
// (CONTRACTS §13.8 verify). It returns the current fingerprint and whether
// it matches.
func (c *Client) VerifyFingerprint(ctx context.Context, state wire.WorkspaceState) (string, bool, error) {
	var r wire.FingerprintResult
	err := c.Call(ctx, wire.MethodFingerprint, wire.FingerprintParams{Action: wire.FingerprintVerify, State: &state}, c.timeout(), &r)
	if err != nil {
		return "", false, err
	}
	if r.Matches == nil {
		return "", false, &wire.ProtocolError{Method: wire.MethodFingerprint, Pointer: "/result/matches", Reason: "required field is missing"}
	}
	return r.CurrentFingerprint, *r.Matches, nil
}

// StorePut stores a document durably in the host's trusted store.
func (c *Client) StorePut(ctx context.Context, p wire.StorePutParams) (wire.StorePutResult, error) {
	var r wire.StorePutResult
	err := c.Call(ctx, wire.MethodStorePut, p, c.timeout(), &r)
	return r, err
}

// StoreGet returns the latest document of one kind of a run, or nil.
func (c *Client) StoreGet(ctx context.Context, p wire.StoreGetParams) (json.RawMessage, error) {
	var r wire.StoreGetResult
	if err := c.Call(ctx, wire.MethodStoreGet, p, c.timeout(), &r); err != nil {
		return nil, err
	}
	if string(r.Document) == "null" {
		return nil, nil
	}
	return r.Document, nil
}

// StoreList returns every document of one kind of a run in put order.
func (c *Client) StoreList(ctx context.Context, p wire.StoreListParams) ([]wire.StoreEntry, error) {
	var r wire.StoreListResult
	err := c.Call(ctx, wire.MethodStoreList, p, c.timeout(), &r)
	return r.Entries, err
}

// TraceAppend appends one event to the host's trace.
func (c *Client) TraceAppend(ctx context.Context, e wire.TraceEvent) error {
	return c.Call(ctx, wire.MethodTraceAppend, wire.TraceAppendParams{Event: e}, c.timeout(), nil)
}

// TraceFlush makes every appended event durable and returns how many
// events the durable trace holds.
func (c *Client) TraceFlush(ctx context.Context) (int, error) {
	var r wire.TraceFlushResult
	err := c.Call(ctx, wire.MethodTraceFlush, struct{}{}, c.timeout(), &r)
	return r.DurableEvents, err
}

// TraceList returns the durable trace of one run.
func (c *Client) TraceList(ctx context.Context, runID string) ([]wire.TraceEvent, error) {
	var r wire.TraceListResult
	err := c.Call(ctx, wire.MethodTraceList, wire.TraceListParams{RunID: runID}, c.timeout(), &r)
	return r.Events, err
}

// Close asks the host to shut down, closes its input and waits for it to
// exit; a host that does not exit within grace is killed with its process
// tree, and so is a host whose connection already broke. Close returns the
// shutdown call's error, or, when the host answered shutdown but had to be
// killed, a *ProtocolError saying so (also listed by Incidents). The
// host's temporary home is removed. Calling Close again returns the same
// error.
func (c *Client) Close(grace time.Duration) error {
	c.closeOnce.Do(func() { c.closeErr = c.close(grace) })
	return c.closeErr
}

func (c *Client) close(grace time.Duration) error {
	defer c.removeHome()
	defer unregister(c)
	if c.cmd != nil {
		// Remember the host's tree while the host is alive: the processes
		// it started with their own group and a scrubbed environment are
		// found after its exit only this way.
		known := treeOf(c.cmd.Process.Pid, c.token, nil)
		c.mu.Lock()
		c.known = known
		c.mu.Unlock()
	}
	var err error
	broken := false
	select {
	case <-c.conn.Done():
		broken = true
	default:
		err = c.Call(context.Background(), wire.MethodShutdown, struct{}{}, grace, nil)
	}
	_ = c.stdin.Close()
	if c.cmd == nil {
		select {
		case <-c.exited:
		case <-time.After(grace):
		}
		return err
	}
	var pe *wire.ProtocolError
	wait := grace
	switch {
	case broken && errors.As(c.conn.Err(), &pe):
		wait = 0 // it broke the protocol: no shutdown is owed
	case broken:
		wait = min(grace, exitGrace) // its output ended: no shutdown could be sent
	case err != nil:
		wait = min(grace, exitGrace) // it did not answer shutdown
	}
	select {
	case <-c.waited:
		<-c.exited // bounded: the tree is killed and the pipes closed within a few seconds
		return err
	case <-time.After(wait):
	}
	killProcessGroup(c.cmd)
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		c.incident("the host could not be reaped within 5s of SIGKILL")
	}
	switch {
	case broken:
		c.incident("killed the host after it broke the protocol")
		return err
	case err != nil:
		c.incident(fmt.Sprintf("the host did not answer shutdown within %s; killed", grace))
		return err
	}
	reason := fmt.Sprintf("the host did not exit within %s of shutdown; killed", grace)
	c.incident(reason)
	return &wire.ProtocolError{Method: wire.MethodShutdown, Reason: reason}
}
