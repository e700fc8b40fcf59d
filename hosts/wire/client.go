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
	Dir     string   // working directory of the host process
	Env     []string // environment; nil inherits the harness's
	Handler Handler  // answers the host's requests (approval/request)
	// OnRecv and OnSend observe every message, as sent on the wire.
	OnRecv, OnSend func(line []byte)
	// CallTimeout bounds every call but tool/execute, which is bounded by
	// its own timeoutMs plus DispatchMargin. Zero means 30 s.
	CallTimeout time.Duration
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
	c := &Client{cmd: cmd, stdin: stdin, stderr: &tail{max: 8 << 10}, opts: opts, exited: make(chan struct{}), runErr: make(chan error, 1)}
	cmd.Stderr = c.stderr
	err = cmd.Start()
	w.Close()
	if err != nil {
		stdout.Close()
		return nil, err
	}
	c.conn = NewConn(NewFramer(stdout, stdin), ConnOptions{Handler: opts.Handler, Strict: true, OnRecv: opts.OnRecv, OnSend: opts.OnSend})
	go func() { c.runErr <- c.conn.Run(context.Background()) }()
	go func() {
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
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

// Execute runs one tool call on the host.
func (c *Client) Execute(ctx context.Context, p ExecuteParams) (port.ToolResult, error) {
	var r port.ToolResult
	timeout := time.Duration(p.TimeoutMs)*time.Millisecond + DispatchMargin
	err := c.Call(ctx, MethodExecute, p, timeout, &r)
	return r, err
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
