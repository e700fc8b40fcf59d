package reference

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
)

// idempotency remembers the successful results of with_key tools by
// canonical ID and idempotency key, so that a repeated key returns the
// same result without executing the side effect again (LAB §20.2 step 3).
// Results are kept in <storeDir>/idempotency, so a fresh host process on
// the same storeDir honours keys seen by an earlier one.
type idempotency struct {
	dir string
	mu  sync.Mutex
	// mem, when not nil, holds the results instead of dir: the
	// IdempotencyInMemory fault.
	mem map[string]port.ToolResult
}

// newIdempotency keeps results under storeDir, or in process memory when
// inMemory (the IdempotencyInMemory fault).
func newIdempotency(storeDir string, inMemory bool) *idempotency {
	i := &idempotency{dir: filepath.Join(storeDir, "idempotency")}
	if inMemory {
		i.mem = map[string]port.ToolResult{}
	}
	return i
}

func (i *idempotency) path(id, key string) string {
	return filepath.Join(i.dir, sha256Text(id+"\x00"+key)+".json")
}

func (i *idempotency) get(id, key string) (port.ToolResult, bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.mem != nil {
		r, ok := i.mem[i.path(id, key)]
		return r, ok
	}
	b, err := os.ReadFile(i.path(id, key))
	if err != nil {
		return port.ToolResult{}, false
	}
	var r port.ToolResult
	if json.Unmarshal(b, &r) != nil {
		return port.ToolResult{}, false
	}
	return r, true
}

func (i *idempotency) put(id, key string, r port.ToolResult) error {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.mem != nil {
		i.mem[i.path(id, key)] = r
		return nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return writeAtomic(i.path(id, key), b)
}
