package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
)

// A Proxy applies fault rules to one connection between the harness and a
// host. Create it with [New], then connect it with [Proxy.Attach] or
// [Proxy.Wrap] exactly once.
type Proxy struct {
	rules []Rule

	mu      sync.Mutex
	counts  []int             // matching requests seen, per rule
	toolIDs map[string]string // model name → canonical ID, from the last tool set
	pending map[string]*call  // forwarded requests by the JSON text of their id
	faults  []Fault
	broke   bool // the proxy itself ended or corrupted the transport

	client, host *jsonrpc.LineFramer
	hostIn       io.Closer   // the host's input, closed when the harness ends its output
	closers      []io.Closer // everything, closed when the transport closes
	closeOnce    sync.Once
	done         chan struct{}
}

// call is a forwarded request waiting for the host's answer.
type call struct {
	method, id, modelName, canonicalID string
	answer                             []int // rules to apply to the answer
}

// New returns a proxy for rules, which must be valid ([Validate]).
func New(rules []Rule) (*Proxy, error) {
	if err := Validate(rules); err != nil {
		return nil, err
	}
	return &Proxy{
		rules:   slices.Clone(rules),
		counts:  make([]int, len(rules)),
		toolIDs: map[string]string{},
		pending: map[string]*call{},
		done:    make(chan struct{}),
	}, nil
}

// Attach puts the proxy between the harness and a host process: hostOut is
// the host's standard output, hostIn its standard input. The harness's
// connection must read clientIn and write clientOut instead. When the host's
// output ends, clientIn ends; when the harness closes clientOut, hostIn is
// closed. Its signature is that of hostproc.StartOptions.Interpose, so a client
// attaches the proxy with Interpose: p.Attach.
func (p *Proxy) Attach(hostOut io.Reader, hostIn io.WriteCloser) (clientIn io.Reader, clientOut io.WriteCloser) {
	toClientR, toClientW := io.Pipe()
	fromClientR, fromClientW := io.Pipe()
	p.start(fromClientR, toClientW, hostOut, hostIn, hostIn, toClientW, hostIn, fromClientR)
	return toClientR, fromClientW
}

// Wrap runs the proxy between two in-process streams: it reads the
// harness's messages from client and writes the answers back to it, and
// writes to and reads from host. Either side that is an io.Closer is closed
// when the proxy closes the transport; host is also closed when client's
// input ends.
func (p *Proxy) Wrap(client, host io.ReadWriter) {
	var closers []io.Closer
	var hostIn io.Closer
	for _, s := range []io.ReadWriter{client, host} {
		if c, ok := s.(io.Closer); ok {
			closers = append(closers, c)
		}
	}
	if c, ok := host.(io.Closer); ok {
		hostIn = c
	}
	p.start(client, client, host, host, hostIn, closers...)
}

// Done is closed when the proxy has closed the transport, by a rule or
// because one side ended.
func (p *Proxy) Done() <-chan struct{} { return p.done }

// Faults returns the injected faults in the order they were applied.
func (p *Proxy) Faults() []Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.faults)
}

func (p *Proxy) start(clientR io.Reader, clientW io.Writer, hostR io.Reader, hostW io.Writer, hostIn io.Closer, closers ...io.Closer) {
	p.client = jsonrpc.NewLineFramer(clientR, clientW)
	p.host = jsonrpc.NewLineFramer(hostR, hostW)
	p.hostIn, p.closers = hostIn, closers
	go p.pump(p.client, p.fromClient, p.endHostInput)
	go p.pump(p.host, p.fromHost, p.close)
}

// pump reads one side until it ends, then calls end.
func (p *Proxy) pump(f *jsonrpc.LineFramer, handle func([]byte), end func()) {
	for {
		line, err := f.Read()
		if err != nil {
			end()
			return
		}
		handle(line)
	}
}

// endHostInput passes the end of the harness's output on to the host; the
// transport closes when the host's output ends.
func (p *Proxy) endHostInput() {
	if p.hostIn != nil {
		_ = p.hostIn.Close()
	}
}

// close closes the transport in both directions, once.
func (p *Proxy) close() {
	p.closeOnce.Do(func() {
		for _, c := range p.closers {
			_ = c.Close()
		}
		close(p.done)
	})
}

// breakTransport records that the proxy, not the host, ended or
// corrupted the transport.
func (p *Proxy) breakTransport() {
	p.mu.Lock()
	p.broke = true
	p.mu.Unlock()
}

// BrokeTransport reports whether one of the proxy's faults ended the
// transport (close, drop_ack) or sent the client a line that is not JSON
// (corrupt_result "json"). The client then sees a host that broke the
// protocol: what it does about that (killing the host) answers a fault
// conform injected, never something the host did.
func (p *Proxy) BrokeTransport() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.broke
}

func (p *Proxy) record(rule int, c *call, detail string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults = append(p.faults, Fault{
		Seq: len(p.faults) + 1, Rule: rule, Action: p.rules[rule].Action, Method: c.method, RequestID: c.id,
		ModelName: c.modelName, CanonicalToolID: c.canonicalID, Detail: detail,
	})
}

// fromClient handles one message the harness sent.
func (p *Proxy) fromClient(line []byte) {
	var msg jsonrpc.Envelope
	if json.Unmarshal(line, &msg) != nil || !msg.IsRequest() || msg.ID == nil {
		_ = p.host.Write(line) // answers to the host's requests, notifications, garbage
		return
	}
	c := &call{method: msg.Method, id: string(*msg.ID)}
	if msg.Method == wire.MethodExecute {
		var params struct {
			ModelName string `json:"modelName"`
		}
		_ = json.Unmarshal(msg.Params, &params)
		c.modelName = params.ModelName
	}
	fired := p.match(c)
	var cancels []int
	for _, i := range fired {
		r := p.rules[i]
		switch {
		case r.Action == ActionFail:
			e := r.Error
			if e == nil {
				e = &wire.Error{Code: wire.ErrInternal.Code, Message: "injected fault"}
			}
			p.record(i, c, fmt.Sprintf("answered with JSON-RPC error %d without forwarding", e.Code))
			p.answerClient(&jsonrpc.Envelope{JSONRPC: "2.0", ID: msg.ID, Error: e})
			return
		case r.Action == ActionClose:
			p.record(i, c, "closed the transport without forwarding")
			p.breakTransport()
			p.close()
			return
		case r.Action == ActionDelay:
			p.record(i, c, fmt.Sprintf("held the request for %d ms", r.DelayMs))
			select {
			case <-time.After(time.Duration(r.DelayMs) * time.Millisecond):
			case <-p.done:
				return
			}
		case r.Action == ActionCancel:
			cancels = append(cancels, i)
		case r.onAnswer():
			c.answer = append(c.answer, i)
		}
	}
	p.mu.Lock()
	p.pending[c.id] = c
	p.mu.Unlock()
	_ = p.host.Write(line)
	for _, i := range cancels {
		go p.cancelLater(i, c, *msg.ID)
	}
}

// match counts c against every rule and returns the rules that fire, in
// order.
func (p *Proxy) match(c *call) []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	c.canonicalID = p.toolIDs[c.modelName]
	var fired []int
	for i, r := range p.rules {
		if r.Method != c.method ||
			(r.ModelName != "" && r.ModelName != c.modelName) ||
			(r.CanonicalToolID != "" && r.CanonicalToolID != c.canonicalID) {
			continue
		}
		p.counts[i]++
		if r.Nth == 0 || r.Nth == p.counts[i] {
			fired = append(fired, i)
		}
	}
	return fired
}

// cancelLater sends $/cancelRequest for the request to the host after the
// rule's delay, if the host has not answered by then.
func (p *Proxy) cancelLater(rule int, c *call, id json.RawMessage) {
	select {
	case <-time.After(time.Duration(p.rules[rule].CancelAfterMs) * time.Millisecond):
	case <-p.done:
		return
	}
	p.mu.Lock()
	_, waiting := p.pending[c.id]
	p.mu.Unlock()
	if !waiting {
		p.record(rule, c, "the host answered before the cancellation was due; nothing sent")
		return
	}
	b, err := json.Marshal(jsonrpc.Envelope{JSONRPC: "2.0", Method: wire.MethodCancel, Params: mustJSON(map[string]json.RawMessage{"id": id})})
	if err != nil {
		return
	}
	p.record(rule, c, fmt.Sprintf("sent %s to the host after %d ms", wire.MethodCancel, p.rules[rule].CancelAfterMs))
	_ = p.host.Write(b)
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func (p *Proxy) answerClient(m *jsonrpc.Envelope) {
	b, err := json.Marshal(m)
	if err == nil {
		_ = p.client.Write(b)
	}
}

// fromHost handles one message the host sent.
func (p *Proxy) fromHost(line []byte) {
	var msg jsonrpc.Envelope
	if json.Unmarshal(line, &msg) != nil || msg.IsRequest() || msg.ID == nil {
		_ = p.client.Write(line)
		return
	}
	id := string(*msg.ID)
	p.mu.Lock()
	c, ok := p.pending[id]
	delete(p.pending, id)
	if ok && msg.Error == nil && (c.method == wire.MethodToolsList || c.method == wire.MethodToolsRestore) {
		var set struct {
			CanonicalToolIDs map[string]string `json:"canonicalToolIds"`
		}
		if json.Unmarshal(msg.Result, &set) == nil && set.CanonicalToolIDs != nil {
			p.toolIDs = set.CanonicalToolIDs
		}
	}
	p.mu.Unlock()
	if !ok || len(c.answer) == 0 {
		_ = p.client.Write(line)
		return
	}
	for _, i := range c.answer {
		switch p.apply(i, c, &msg, line) {
		case verdictDrop:
			return
		case verdictRaw:
			_ = p.client.Write(line[:len(line)/2])
			return
		}
	}
	p.answerClient(&msg)
}

type verdict int

const (
	verdictForward verdict = iota // forward msg (possibly rewritten)
	verdictDrop                   // send nothing more
	verdictRaw                    // send a truncated copy of the original line
)

// apply applies answer rule i to msg.
func (p *Proxy) apply(i int, c *call, msg *jsonrpc.Envelope, line []byte) verdict {
	r := p.rules[i]
	switch r.Action {
	case ActionDropAck:
		p.record(i, c, "dropped the host's answer and closed the transport")
		p.breakTransport()
		p.close()
		return verdictDrop
	case ActionCorruptResult:
		if r.Corruption == CorruptJSON {
			p.record(i, c, "replaced the host's answer with its first half, which is not JSON")
			p.breakTransport()
			return verdictRaw
		}
		if msg.Error != nil {
			p.record(i, c, "the host answered with an error; left unchanged")
			return verdictForward
		}
		msg.Result = json.RawMessage(`{"conformProxyCorrupted":true}`)
		p.record(i, c, "replaced the host's result with an object no result schema accepts")
	case ActionThrowAfterCommit:
		e := r.Error
		if e == nil {
			e = p.thrown(c, msg)
		}
		msg.Result, msg.Error = nil, e
		p.record(i, c, fmt.Sprintf("replaced the host's answer with JSON-RPC error %d", e.Code))
	case ActionForgeEffects, ActionMismatchID:
		if msg.Error != nil {
			p.record(i, c, "the host answered with an error; left unchanged")
			return verdictForward
		}
		res, err := decodeObject(msg.Result)
		if err != nil {
			p.record(i, c, "the host's result is not an object; left unchanged")
			return verdictForward
		}
		var detail string
		if r.Action == ActionMismatchID {
			detail = fmt.Sprintf("replaced canonicalToolId %v with %q", res["canonicalToolId"], r.ClaimCanonicalToolID)
			res["canonicalToolId"] = r.ClaimCanonicalToolID
		} else {
			if err := forge(res, r); err != nil {
				p.record(i, c, "cannot forge effects: "+err.Error())
				return verdictForward
			}
			detail = "added effects the host did not attest: " + string(mustJSON(r.Effects))
		}
		b, err := json.Marshal(res)
		if err != nil {
			p.record(i, c, "cannot encode the rewritten result: "+err.Error())
			return verdictForward
		}
		msg.Result = b
		p.record(i, c, detail)
	}
	return verdictForward
}

// thrown is the default error of throw_after_commit: the protocol's
// unknown-outcome error for a tool call, an internal error otherwise.
func (p *Proxy) thrown(c *call, msg *jsonrpc.Envelope) *wire.Error {
	const reason = "injected fault: the host failed after dispatch"
	if c.method != wire.MethodExecute {
		return &wire.Error{Code: wire.ErrInternal.Code, Message: reason}
	}
	id := c.canonicalID
	var res struct {
		CanonicalToolID string `json:"canonicalToolId"`
	}
	if msg.Error == nil && json.Unmarshal(msg.Result, &res) == nil && res.CanonicalToolID != "" {
		id = res.CanonicalToolID
	}
	if id == "" {
		id = c.modelName
	}
	return wire.UnknownOutcomeError(id, reason)
}

func decodeObject(raw json.RawMessage) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("result is null")
	}
	return m, nil
}

// forge merges the rule's effects into the result: lists are appended,
// other fields replaced, and effectsAuthority becomes "host".
func forge(res map[string]any, r Rule) error {
	add, err := decodeObject(mustJSON(r.Effects))
	if err != nil {
		return err
	}
	effects, _ := res["effects"].(map[string]any)
	if effects == nil {
		effects = map[string]any{}
	}
	for k, v := range add {
		if list, ok := v.([]any); ok {
			if have, ok := effects[k].([]any); ok {
				effects[k] = append(have, list...)
				continue
			}
		}
		effects[k] = v
	}
	res["effects"] = effects
	res["effectsAuthority"] = "host"
	return nil
}
