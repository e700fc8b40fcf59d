package catalog

// Descriptor defaults (CONTRACTS §4.2), applied by [WithDefaults] before a
// tool's own values.
const (
	DefaultVersion         = "2.0.0"
	DefaultTransport       = TransportCore
	DefaultTimeoutMs       = 30000
	DefaultMaxOutputBytes  = 32000
	DefaultMaxOutputTokens = 8000
)

// WithDefaults returns a copy of d with every unset field given the
// catalog default (CONTRACTS §4.2): version "2.0.0", transport "core",
// idempotency "safe" for mutability "read" and "unsafe" otherwise, timeout
// 30000 ms, 32000 output bytes, 8000 output tokens, TEXT modalities
// (accepts text, produces structured_data and text) and source owner
// "core". A zero value counts as unset; pagination, cancellation and
// enabledByDefault default to false, which is their zero value. Nil
// permissions become an empty list.
func WithDefaults(d Descriptor) Descriptor {
	d = d.Clone()
	if d.Version == "" {
		d.Version = DefaultVersion
	}
	if d.Transport == "" {
		d.Transport = DefaultTransport
	}
	if d.Idempotency == "" {
		d.Idempotency = IdempotencyUnsafe
		if d.Mutability == MutabilityRead {
			d.Idempotency = IdempotencySafe
		}
	}
	if d.TimeoutMs == 0 {
		d.TimeoutMs = DefaultTimeoutMs
	}
	if d.MaxOutputBytes == 0 {
		d.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if d.MaxOutputTokens == 0 {
		d.MaxOutputTokens = DefaultMaxOutputTokens
	}
	if d.Modalities.Accepts == nil && d.Modalities.Produces == nil {
		req := d.Modalities.RequiredModelCapabilities
		d.Modalities = textModalities()
		d.Modalities.RequiredModelCapabilities = req
	}
	if d.Source.Owner == "" {
		d.Source.Owner = OwnerCore
	}
	if d.Permissions == nil {
		d.Permissions = []string{}
	}
	return d
}
