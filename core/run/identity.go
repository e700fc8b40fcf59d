package run

import (
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

// An identityMemo is the last model identity a done event reported, with
// its public form and its identity key. A model reports the same identity
// every round; with the memo its base URL is parsed and its key encoded
// once instead of twice a round. Not safe for concurrent use: the run's
// own goroutine reads the model's events.
type identityMemo struct {
	last *identityForms
}

type identityForms struct {
	raw, public port.ModelIdentity
	key         string
}

// forms returns prompt.PublicModelIdentity(id) and
// prompt.ModelIdentityKey(id).
func (m *identityMemo) forms(id port.ModelIdentity) (port.ModelIdentity, string) {
	if f := m.last; f != nil && f.raw == id {
		return f.public, f.key
	}
	f := &identityForms{raw: id, public: prompt.PublicModelIdentity(id), key: prompt.ModelIdentityKey(id)}
	m.last = f
	return f.public, f.key
}
