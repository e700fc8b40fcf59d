package clock

import (
	"strconv"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
)

// IDs is a deterministic identifier source: NewID(prefix) returns
// "<prefix>-<n>" with a counter per prefix starting at 1, optionally under a
// namespace ("<namespace>-<prefix>-<n>"), unless the prefix is pinned to a
// fixed ID. It is safe for concurrent use.
type IDs struct {
	mu        sync.Mutex
	namespace string
	counts    map[string]int
	pinned    map[string]string
	issued    []string
}

var _ port.IDSource = (*IDs)(nil)

// NewIDs returns an ID source whose IDs start with namespace and a dash, or
// with the prefix alone when namespace is empty. The original lab's
// execution IDs ("fixture-execution-1", …) come from NewIDs("fixture").
func NewIDs(namespace string) *IDs {
	return &IDs{namespace: namespace, counts: map[string]int{}, pinned: map[string]string{}}
}

// Pin makes every later NewID(prefix) return id, without counting; the
// original lab's ID factory always returns the fixture's run ID (LAB §3.1).
func (s *IDs) Pin(prefix, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pinned[prefix] = id
}

// NewID returns the next ID for prefix.
func (s *IDs) NewID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.pinned[prefix]
	if !ok {
		s.counts[prefix]++
		id = prefix + "-" + strconv.Itoa(s.counts[prefix])
		if s.namespace != "" {
			id = s.namespace + "-" + id
		}
	}
	s.issued = append(s.issued, id)
	return id
}

// Issued returns every ID handed out so far, oldest first.
func (s *IDs) Issued() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.issued...)
}
