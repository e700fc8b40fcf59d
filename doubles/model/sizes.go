package model

import (
	"slices"

	"github.com/galaxy-stack/conform/core/clone"
	"github.com/galaxy-stack/conform/core/port"
)

// A messageCache remembers the messages the double has received, each as
// its own deep copy with the length of its compact JSON, keyed by content.
// A conversation resends its history every round; with the cache each
// message is copied and encoded once per run instead of once per request.
// The copies are never changed or handed out, so records share them. The
// zero value is ready to use.
type messageCache struct {
	byContent map[string][]*sizedMessage
	// last is what record returned for the messages of its last call, by
	// position: a history resent with one more message matches it
	// message by message without hashing each message's content again.
	// spare is the previous call's, reused for the next.
	last, spare []*sizedMessage
	// lastTools is the last tool list received (see [toolsMemo]).
	lastTools toolsMemo
}

// A sizedMessage is a received message's deep copy and the lengths of the
// compact JSON of the message as received and of its copy (the same
// unless the message held values that encoding/json does not decode to).
type sizedMessage struct {
	msg      port.Message
	size     int
	copySize int
	cached   bool // msg is the cache's copy, equal to the message it was made from
}

// lookup returns the cached copy of m and its JSON lengths, adding them on
// first sight. A message whose copy differs from it (values encoding/json
// does not decode to) is copied and measured every time, and so is one
// that does not encode (its lengths are then -1).
func (c *messageCache) lookup(m port.Message) *sizedMessage {
	for _, e := range c.byContent[m.Content] {
		if messageEqual(e.msg, m) {
			return e
		}
	}
	e := &sizedMessage{msg: cloneMessage(m), size: messageSize(m)}
	if !messageEqual(e.msg, m) || e.size < 0 {
		e.copySize = jsonSize(e.msg)
		return e
	}
	e.copySize, e.cached = e.size, true
	if c.byContent == nil {
		c.byContent = map[string][]*sizedMessage{}
	}
	c.byContent[m.Content] = append(c.byContent[m.Content], e)
	return e
}

// jsonSize is the length of v's compact JSON, or -1 when v does not
// encode.
func jsonSize(v any) int {
	b := compactJSON(v)
	if b == nil {
		return -1
	}
	return len(b)
}

// record returns a copy of ms for the double's records, made of pointers
// to cached message copies, with the length of the compact JSON of ms and
// that of the copy (-1 when it does not encode). The copy is nil when ms
// is.
func (c *messageCache) record(ms []port.Message) (copied []*port.Message, size, copySize int) {
	if ms == nil {
		return nil, len("null"), len("null")
	}
	copied = make([]*port.Message, len(ms))
	size = len("[]") + max(0, len(ms)-1) // brackets and commas
	copySize = size
	last := slices.Grow(c.spare[:0], len(ms))[:len(ms)]
	for i, m := range ms {
		var e *sizedMessage
		if i < len(c.last) && c.last[i].cached && messageEqual(c.last[i].msg, m) {
			e = c.last[i] // the entry lookup would find: the cache's copy equal to m
		} else {
			e = c.lookup(m)
		}
		last[i] = e
		copied[i] = &e.msg
		size = addSize(size, e.size)
		copySize = addSize(copySize, e.copySize)
	}
	c.last, c.spare = last, c.last
	return copied, size, copySize
}

// addSize adds two lengths, either of which may be -1 (does not encode).
func addSize(a, b int) int {
	if a < 0 || b < 0 {
		return -1
	}
	return a + b
}

// withParts is the length of a document whose JSON with its messages and
// tools standing as null is rest bytes long, once the messages, msgs bytes
// long, and the tools, tools bytes long, replace the nulls; 0, the length
// of compactJSON's empty answer, when any part does not encode.
func withParts(rest, msgs, tools int) int {
	if rest < 0 || msgs < 0 || tools < 0 {
		return 0
	}
	return rest - 2*len("null") + msgs + tools
}

// A recordedRequest is the double's record of a round request: the request
// without its messages, which are in msgs.
type recordedRequest struct {
	req  port.RoundRequest
	msgs []*port.Message
}

// A recordedCount is the double's record of a token-count input.
type recordedCount struct {
	msgs  []*port.Message
	tools []port.ToolDefinition
}

// messages returns a deep copy of recorded messages (nil for nil).
func messages(ms []*port.Message) []port.Message {
	if ms == nil {
		return nil
	}
	out := make([]port.Message, len(ms))
	for i, m := range ms {
		out[i] = cloneMessage(*m)
	}
	return out
}

// recordRequest returns the double's record of req and the length of the
// compact JSON of req: the JSON of req without its messages and tools
// ("messages":null, "tools":null) with the lengths of the messages and the
// tools in place of the nulls.
func (c *messageCache) recordRequest(req port.RoundRequest) (recordedRequest, int) {
	msgs, msgSize, _ := c.record(req.Messages)
	tools, toolSize, _ := c.tools(req.Tools)
	rest := req
	rest.Messages, rest.Tools = nil, nil
	size := withParts(jsonSize(rest), msgSize, toolSize)
	rest.Tools = tools
	rest.Attachments = slices.Clone(req.Attachments)
	return recordedRequest{req: rest, msgs: msgs}, size
}

// recordCount returns the double's record of a token-count input and the
// length of the record's compact JSON, measured like recordRequest's.
func (c *messageCache) recordCount(messages []port.Message, tools []port.ToolDefinition) (recordedCount, int) {
	msgs, _, msgSize := c.record(messages)
	copied, _, toolSize := c.tools(tools)
	size := withParts(jsonSize(CountInput{}), msgSize, toolSize)
	return recordedCount{msgs: msgs, tools: copied}, size
}

// messageEqual reports whether a and b are equal field by field, as
// [reflect.DeepEqual] would say, and faster for decoded JSON arguments.
func messageEqual(a, b port.Message) bool {
	if a.Role != b.Role || a.Content != b.Content || a.Thinking != b.Thinking || a.ToolCallID != b.ToolCallID ||
		a.ToolName != b.ToolName || len(a.ToolCalls) != len(b.ToolCalls) || (a.ToolCalls == nil) != (b.ToolCalls == nil) {
		return false
	}
	for i, ca := range a.ToolCalls {
		cb := b.ToolCalls[i]
		if ca.ToolCallID != cb.ToolCallID || ca.Name != cb.Name || !clone.Equal(ca.Arguments, cb.Arguments) {
			return false
		}
	}
	return true
}
