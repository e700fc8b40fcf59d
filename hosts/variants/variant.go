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
}

// Handler returns the variant: the reference host with its options, its
// answers rewritten by Rewrite.
func (v Variant) Handler() jsonrpc.Handler {
	h := reference.NewWith(v.Options)
	if v.Rewrite == nil {
		return h
	}
	return &rewriting{h: h, rw: v.Rewrite}
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
