package doubles

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
)

// A Func is one tool implementation: it runs one call with the model's
// arguments (decoded JSON) and returns the CONTRACTS §7.5 envelope. A failed
// call is an ok:false result, not an error; an error means the outcome of
// the call is unknown, and the executor fails the run closed. The context's
// cancellation and deadline are the call's.
type Func func(ctx context.Context, args map[string]any) (port.ToolResult, error)

// The canonical IDs of the nine optional tools served by doubles.
const (
	ArtifactCreate    = "artifact.create"
	ArtifactList      = "artifact.list"
	ArtifactRead      = "artifact.read"
	CommandSession    = "command.session"
	PerceptionAnalyze = "perception.analyze"
	PreviewManage     = "preview.manage"
	ResearchFetch     = "research.fetch"
	ResearchSearch    = "research.search"
	UserAsk           = "user.ask"
)

// runs maps the canonical ID of each doubled tool to its implementation.
var runs = map[string]func(t *Tools, args map[string]any) outcome{
	ArtifactCreate:    (*Tools).createArtifact,
	ArtifactList:      (*Tools).listArtifacts,
	ArtifactRead:      (*Tools).readArtifact,
	CommandSession:    (*Tools).manageSession,
	PerceptionAnalyze: (*Tools).analyze,
	PreviewManage:     (*Tools).managePreview,
	ResearchFetch:     func(_ *Tools, args map[string]any) outcome { return fetch(args) },
	ResearchSearch:    func(_ *Tools, args map[string]any) outcome { return search(args) },
	UserAsk:           func(_ *Tools, args map[string]any) outcome { return askUser(args) },
}

// ids are the keys of runs, sorted.
var ids = slices.Sorted(maps.Keys(runs))

// IDs returns the canonical IDs of the nine doubles, sorted.
func IDs() []string { return slices.Clone(ids) }

// IsDouble reports whether id is one of the nine doubled tools.
func IsDouble(id string) bool { return slices.Contains(ids, id) }

// Epoch is the fixed timestamp the doubles give every artifact and
// provenance record, so that no clock value enters their output.
const Epoch = "1970-01-01T00:00:00.000Z"

// CodeUnsupportedTool is the error code for a canonical ID that has no
// double.
const CodeUnsupportedTool = "UNSUPPORTED_TOOL"

// Tools is one instance of the nine doubles and their shared in-memory
// state. State is not persisted: a new Tools (a fresh host) starts empty.
// A Tools is safe for concurrent use; its zero value is not usable, call
// [New].
type Tools struct {
	mu        sync.Mutex
	artifacts map[string]artifact
	sessions  map[string]*session
	previews  map[string]preview
	seq       struct{ artifact, session, preview int }
}

// New returns the nine doubles with empty state.
func New() *Tools {
	return &Tools{
		artifacts: map[string]artifact{},
		sessions:  map[string]*session{},
		previews:  map[string]preview{},
	}
}

// Funcs returns the nine doubles keyed by canonical ID. They share t's
// state.
func (t *Tools) Funcs() map[string]Func {
	out := make(map[string]Func, len(ids))
	for _, id := range ids {
		out[id] = func(ctx context.Context, args map[string]any) (port.ToolResult, error) {
			return t.Execute(ctx, id, args)
		}
	}
	return out
}

// Execute runs the double of the canonical tool id. It first checks ctx
// (CANCELED, DEADLINE_EXCEEDED); an id without a double is
// UNSUPPORTED_TOOL. Nil args count as an empty object.
func (t *Tools) Execute(ctx context.Context, id string, args map[string]any) (port.ToolResult, error) {
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return failure(id, port.CodeDeadlineExceeded, "The deterministic contract tool exceeded the run deadline."), nil
		}
		return failure(id, port.CodeCanceled, "The deterministic contract tool was canceled."), nil
	}
	if args == nil {
		args = map[string]any{}
	}
	run, ok := runs[id]
	if !ok {
		return failure(id, CodeUnsupportedTool, "No deterministic optional contract double exists for "+id+"."), nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return run(t, args).result(id)
}
