package hostproc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/internal/redact"
)

// StartOptions configure a host process. All fields are optional.
type StartOptions struct {
	Dir string // working directory of the host process
	// Env, if not nil, is the host's whole environment (plus TokenEnv, and
	// CacheEnv for a trusted host; a CacheEnv in Env is dropped, as
	// PassEnv cannot name it either), overriding the default below; Home
	// and PassEnv are then ignored.
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
	// wire.ErrMethodNotFound, which a conformant host treats as a denial.
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
	watch   *watch   // the connection's framer, which says what a silence was
	outPipe *os.File // the host's output pipe (nil for Connect)
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
	abandoned []GaveUpCall
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
	cmd.Env = hostEnv(opts, c.home, c.token, Trusted(path, argv))
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
	watchStalls()
	go c.stderr.drain(errR, c.errDone)
	c.outPipe = stdout
	c.watch = newWatch(jsonrpc.NewLineFramer(out, in).Limit(opts.MaxMessage))
	c.conn = jsonrpc.NewConn(c.watch, c.connOptions())
	go func() { c.runErr <- c.conn.Run(context.Background()) }()
	go func() {
		// The session ends when the host exits: its tree goes with it.
		// The host is killed with its group and tree before it is
		// reaped, so that neither its PID nor its group's ID can have
		// been given to another process when the signals are sent.
		awaitExit(cmd.Process.Pid)
		killProcessGroup(cmd)
		c.mu.Lock()
		known := c.known
		c.mu.Unlock()
		n := killProcs(cmd.Process.Pid, c.token, known)
		c.waitErr = cmd.Wait()
		close(c.waited)
		if n > 0 {
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
	watchStalls()
	done := make(chan struct{}) // no process: the host has exited when its connection ends
	c := &Client{stdin: w, stderr: &tail{max: stderrKeep}, opts: opts, exited: done, waited: done, runErr: make(chan error, 1)}
	c.watch = newWatch(jsonrpc.NewLineFramer(r, w).Limit(opts.MaxMessage))
	c.conn = jsonrpc.NewConn(c.watch, c.connOptions())
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
