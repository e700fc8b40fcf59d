package reference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// fileStore is the trusted checkpoint store (CONTRACTS §13.7, LAB §17): one
// directory per run under <storeDir>/runs, named by the SHA-256 of the run
// ID, holding one file per put, "<kind>-<sequence>.json", each written
// atomically and durably. A fresh host process on the same storeDir sees
// every acknowledged put.
type fileStore struct {
	dir     string
	noop    bool // fault: acknowledge without persisting
	alias   bool // fault: StoreAliasesDocuments
	reorder bool // fault: StoreReordersDocuments
	mu      sync.Mutex
	fakes   map[string]int
	aliased map[string]*aliasedKind // fault state of StoreAliasesDocuments, by kind
}

func newFileStore(storeDir string, noop bool) (*fileStore, error) {
	dir := filepath.Join(storeDir, "runs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &fileStore{dir: dir, noop: noop, fakes: map[string]int{}}, nil
}

func (st *fileStore) runDir(runID string) string { return filepath.Join(st.dir, sha256Text(runID)) }

// sequences returns the sequence numbers stored for one kind of a run,
// ascending.
func (st *fileStore) sequences(runID, kind string) ([]int, error) {
	ents, err := os.ReadDir(st.runDir(runID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var seqs []int
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, kind+"-") || !strings.HasSuffix(name, ".json") {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, kind+"-"), ".json"))
		if err == nil && n > 0 {
			seqs = append(seqs, n)
		}
	}
	sort.Ints(seqs)
	return seqs, nil
}

func (st *fileStore) file(runID, kind string, seq int) string {
	return filepath.Join(st.runDir(runID), fmt.Sprintf("%s-%06d.json", kind, seq))
}

func artifactRef(runID, kind string, seq int, doc json.RawMessage) string {
	if kind == wire.KindCheckpoint {
		var h struct {
			ContentHash string `json:"contentHash"`
		}
		if json.Unmarshal(doc, &h) == nil && h.ContentHash != "" {
			return "galaxy-checkpoint://" + sha256Text(runID) + "/" + h.ContentHash
		}
	}
	return fmt.Sprintf("conform-store://%s/%s/%d", sha256Text(runID), kind, seq)
}

func storeFailure(err error) error {
	if errors.Is(err, context.Canceled) {
		return wire.PortFailure(&port.Error{Code: port.CodeCanceled, Message: "Run-store operation canceled."})
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return wire.PortFailure(&port.Error{Code: port.CodeDeadlineExceeded, Message: "Run-store operation deadline elapsed."})
	}
	return wire.PortFailure(&port.Error{Code: port.CodeIOError, Message: err.Error()})
}

func (s *session) storePut(ctx context.Context, p wire.StorePutParams) (wire.StorePutResult, error) {
	if err := ctx.Err(); err != nil {
		return wire.StorePutResult{}, storeFailure(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(p.Document, &doc); err != nil || doc == nil {
		return wire.StorePutResult{}, wire.PortFailure(&port.Error{Code: port.CodeInvalidInput, Message: "The document must be a JSON object."})
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.noop {
		st.fakes[p.RunID+"\x00"+p.Kind]++
		seq := st.fakes[p.RunID+"\x00"+p.Kind]
		return wire.StorePutResult{Sequence: seq, ArtifactRef: artifactRef(p.RunID, p.Kind, seq, p.Document)}, nil
	}
	seqs, err := st.sequences(p.RunID, p.Kind)
	if err != nil {
		return wire.StorePutResult{}, storeFailure(err)
	}
	seq := 1
	if len(seqs) > 0 {
		seq = seqs[len(seqs)-1] + 1
	}
	doc0 := p.Document
	if s.faults.StoreMergesDocuments && len(seqs) > 0 {
		if doc0, err = mergePrevious(st.file(p.RunID, p.Kind, seqs[len(seqs)-1]), p.Document); err != nil {
			return wire.StorePutResult{}, storeFailure(err)
		}
	}
	compact, err := compactJSON(json.RawMessage(doc0))
	if err != nil {
		return wire.StorePutResult{}, storeFailure(err)
	}
	if err := writeAtomic(st.file(p.RunID, p.Kind, seq), []byte(compact+"\n")); err != nil {
		return wire.StorePutResult{}, storeFailure(err)
	}
	if st.alias {
		if err := st.aliasPut(p.Kind, st.file(p.RunID, p.Kind, seq), p.Document); err != nil {
			return wire.StorePutResult{}, storeFailure(err)
		}
	}
	return wire.StorePutResult{Sequence: seq, ArtifactRef: artifactRef(p.RunID, p.Kind, seq, p.Document)}, nil
}

func (s *session) storeEntries(ctx context.Context, runID, kind string, latestOnly bool) ([]wire.StoreEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, storeFailure(err)
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	seqs, err := st.sequences(runID, kind)
	if err != nil {
		return nil, storeFailure(err)
	}
	if latestOnly && len(seqs) > 1 {
		seqs = seqs[len(seqs)-1:]
	}
	out := []wire.StoreEntry{}
	for _, seq := range seqs {
		b, err := os.ReadFile(st.file(runID, kind, seq))
		if err != nil {
			return nil, storeFailure(err)
		}
		doc := json.RawMessage(strings.TrimSpace(string(b)))
		if !json.Valid(doc) {
			return nil, wire.PortFailure(&port.Error{Code: port.CodeIOError, Message: fmt.Sprintf("Stored %s %d of the run is corrupt.", kind, seq)})
		}
		ref := artifactRef(runID, kind, seq, doc)
		if st.reorder {
			doc = jsonbOrder(doc)
		}
		out = append(out, wire.StoreEntry{Sequence: seq, ArtifactRef: ref, Document: doc})
	}
	return out, nil
}

func (s *session) storeGet(ctx context.Context, p wire.StoreGetParams) (wire.StoreGetResult, error) {
	entries, err := s.storeEntries(ctx, p.RunID, p.Kind, !s.faults.StoreGetOldest)
	if err != nil {
		return wire.StoreGetResult{}, err
	}
	entries = s.storeGetFaults(entries)
	if len(entries) == 0 {
		return wire.StoreGetResult{Document: json.RawMessage("null")}, nil
	}
	return wire.StoreGetResult{Document: entries[0].Document}, nil
}

func (s *session) storeList(ctx context.Context, p wire.StoreListParams) (wire.StoreListResult, error) {
	entries, err := s.storeEntries(ctx, p.RunID, p.Kind, false)
	return wire.StoreListResult{Entries: entries}, err
}
