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
}

func newIdempotency(storeDir string) *idempotency {
	return &idempotency{dir: filepath.Join(storeDir, "idempotency")}
}

func (i *idempotency) path(id, key string) string {
	return filepath.Join(i.dir, sha256Text(id+"\x00"+key)+".json")
}

func (i *idempotency) get(id, key string) (port.ToolResult, bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
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
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return writeAtomic(i.path(id, key), b)
}
