package reference

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
)

// taskState is the bounded task checkpoint of task.checkpoint
// (LAB §20.3), in the original key order.
type taskState struct {
	Goal      string   `json:"goal"`
	Progress  string   `json:"progress"`
	Decisions []string `json:"decisions"`
	NextStep  string   `json:"nextStep"`
	UpdatedAt string   `json:"updatedAt"`
}

// taskStore keeps task.checkpoint state per run in
// <storeDir>/tasks/<sha256(runId)>.json, written atomically, so that a fresh
// host process on the same storeDir sees it.
type taskStore struct {
	dir    string
	memory bool // fault: state lives in process memory only
	mu     sync.Mutex
	mem    map[string]taskState
}

func newTaskStore(storeDir string, memory bool) *taskStore {
	return &taskStore{dir: filepath.Join(storeDir, "tasks"), memory: memory, mem: map[string]taskState{}}
}

func (t *taskStore) path(runID string) string { return filepath.Join(t.dir, sha256Text(runID)+".json") }

func (t *taskStore) load(runID string) (*taskState, error) {
	if t.memory {
		if st, ok := t.mem[runID]; ok {
			return &st, nil
		}
		return nil, nil
	}
	b, err := os.ReadFile(t.path(runID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st taskState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, &port.Error{Code: port.CodeIOError, Message: "The stored task checkpoint is corrupt."}
	}
	if st.Decisions == nil {
		st.Decisions = []string{}
	}
	return &st, nil
}

func (t *taskStore) save(runID string, st taskState) error {
	if t.memory {
		t.mem[runID] = st
		return nil
	}
	b, err := compactJSON(st)
	if err != nil {
		return err
	}
	return writeAtomic(t.path(runID), []byte(b+"\n"))
}
