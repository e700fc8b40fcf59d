package run

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

// TestPropertyIdentityMemoFormsEveryIdentity: over identities that repeat
// and change in any member (base URLs that reduce to the same public form
// included), the memo answers what computing the forms afresh gives.
func TestPropertyIdentityMemoFormsEveryIdentity(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var m identityMemo
		member := func(label string, values ...string) string { return rapid.SampledFrom(values).Draw(t, label) }
		for i := range rapid.IntRange(1, 12).Draw(t, "events") {
			id := port.ModelIdentity{
				BaseURL:  member("baseUrl", "http://localhost:11434", "HTTP://LOCALHOST:11434/", "http://user:pw@localhost:80/v1?q=1", "not a url", ""),
				Model:    member("model", "qwen", "llama"),
				Provider: member("provider", "ollama", "openai"),
				Digest:   member("digest", "", "sha256:1"),
				Tag:      member("tag", "", "latest"),
			}
			public, key := m.forms(id)
			if want := prompt.PublicModelIdentity(id); public != want {
				t.Fatalf("event %d: public %+v, want %+v", i, public, want)
			}
			if want := prompt.ModelIdentityKey(id); key != want {
				t.Fatalf("event %d: key %s, want %s", i, key, want)
			}
		}
	})
}
