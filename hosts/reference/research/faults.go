package research

import (
	"maps"
	"slices"
	"strings"
)

// Faults are the seams where a mutant of the reference host breaks one
// public-research guarantee of the adapter; the zero value switches none
// on. Only the mutants use them.
type Faults struct {
	// CredentialInQuery also sends every configured header value as a
	// "key" query parameter of the search request.
	CredentialInQuery bool
	// CredentialToSources sends the configured headers to fetched
	// sources too, not only to the search endpoint.
	CredentialToSources bool
	// KeepSecrets leaves credentials in provider text: titles, snippets
	// and fetched content are not redacted.
	KeepSecrets bool
	// UnboundedBody reads a fetched body to its end, however long.
	UnboundedBody bool
	// IgnoreDeadline detaches a fetch from the call's deadline and
	// cancellation; only the adapter's own time limit applies.
	IgnoreDeadline bool
	// AcceptInvalidUTF8 passes bytes that are not UTF-8 through as
	// content.
	AcceptInvalidUTF8 bool
}

// redact is redactAll unless the KeepSecrets fault is on.
func (c *Client) redact(v string) string {
	if c.cfg.Faults.KeepSecrets {
		return v
	}
	return redactAll(v, c.secrets)
}

// credentialQuery adds the CredentialInQuery fault's parameters to q.
func (c *Client) credentialQuery(set func(key, value string)) {
	if !c.cfg.Faults.CredentialInQuery {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(c.cfg.Headers)) {
		v := c.cfg.Headers[name]
		if f := strings.Fields(v); len(f) > 1 {
			v = f[len(f)-1]
		}
		set("key", v)
	}
}
