package variants

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
)

// A Variant is one named permitted variation of the reference host.
type Variant struct {
	// Name is the kebab-case name given to --variant.
	Name string
	// Choice is the host's choice the variant takes, in the words of the
	// contract that leaves it to the host.
	Choice string
	// Description says in one line what the variant does differently.
	Description string
	// Options are the reference host options of the variant.
	Options reference.Options
	// Rewrite, when not nil, rewrites every tool/execute result and every
	// error message the host answers, as another host would write them.
	Rewrite *Rewrite
	// CancelError answers a cancelled tool/execute that changed nothing
	// with -32800 (request cancelled) instead of its result.
	CancelError bool
}

// Handler returns the variant: the reference host with its options, its
// answers rewritten by Rewrite.
func (v Variant) Handler() jsonrpc.Handler {
	var h jsonrpc.Handler = reference.NewWith(v.Options)
	if v.CancelError {
		h = cancelError{h}
	}
	if v.Rewrite == nil {
		return h
	}
	return &rewriting{h: h, rw: v.Rewrite}
}

// cancelError answers a cancelled tool/execute with -32800 when its result
// attests no write: PROTOCOL.md lets a host answer a cancelled request
// "with its result or with -32800"; the writes of a cancelled call must
// stay explicit in its result (seed item 29).
type cancelError struct{ h jsonrpc.Handler }

func (c cancelError) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	res, err := c.h.Handle(ctx, method, params)
	if method != wire.MethodExecute || err != nil || ctx.Err() == nil {
		return res, err
	}
	b, merr := json.Marshal(res)
	var r struct {
		Effects *struct {
			Writes []json.RawMessage `json:"writes"`
		} `json:"effects"`
	}
	if merr != nil || json.Unmarshal(b, &r) != nil || (r.Effects != nil && len(r.Effects.Writes) > 0) {
		return res, err
	}
	return nil, wire.ErrRequestCancelled
}

// rewriting is a handler whose answers pass through a Rewrite.
type rewriting struct {
	h  jsonrpc.Handler
	rw *Rewrite

	mu       sync.Mutex
	storeDir string // from initialize
}

func (r *rewriting) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	if method == wire.MethodInitialize {
		var p wire.InitializeParams
		if json.Unmarshal(params, &p) == nil {
			r.mu.Lock()
			r.storeDir = p.StoreDir
			r.mu.Unlock()
		}
	}
	res, err := r.h.Handle(ctx, method, params)
	if err != nil {
		var we *wire.Error
		if r.rw.Text != nil && errors.As(err, &we) {
			c := *we
			c.Message = r.rw.Text(c.Message)
			return nil, &c
		}
		return res, err
	}
	if method != wire.MethodExecute {
		return res, nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	storeDir := r.storeDir
	r.mu.Unlock()
	out, err := r.rw.apply(b, storeDir)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(out), nil
}

// All returns every variant, sorted by name. The slice is a fresh copy.
func All() []Variant {
	all := registry()
	slices.SortFunc(all, func(a, b Variant) int { return strings.Compare(a.Name, b.Name) })
	return all
}

// Names returns the names of every variant, sorted.
func Names() []string {
	all := All()
	names := make([]string, len(all))
	for i, v := range all {
		names[i] = v.Name
	}
	return names
}

// Lookup returns the variant called name.
func Lookup(name string) (Variant, bool) {
	for _, v := range registry() {
		if v.Name == name {
			return v, true
		}
	}
	return Variant{}, false
}
