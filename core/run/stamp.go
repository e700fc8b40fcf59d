package run

import (
	"sync/atomic"

	"github.com/galaxy-stack/conform/core/checkpoint"
)

// A stampCache remembers the last clock reading it formatted and its
// ISO-8601 text: a round reads the clock several times (state transitions,
// the ledger, the checkpoint), mostly within one millisecond. It is safe
// for concurrent use; the zero value is ready.
type stampCache struct {
	last atomic.Pointer[stamp]
}

type stamp struct {
	ms   int64
	text string
}

// format returns checkpoint.FormatTimestamp(ms).
func (c *stampCache) format(ms int64) string {
	if s := c.last.Load(); s != nil && s.ms == ms {
		return s.text
	}
	s := &stamp{ms: ms, text: checkpoint.FormatTimestamp(ms)}
	c.last.Store(s)
	return s.text
}
