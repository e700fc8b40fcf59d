package checkpoint

import "github.com/galaxy-stack/conform/core/canon"

// options are the seams of this package. Production code uses defaults;
// the tests build broken variants (no redaction, a skipped field, a
// non-canonical serializer, a weaker hash) to show that each property
// catches them.
type options struct {
	// redact redacts one free-text value.
	redact func(string) string
	// skipRedaction names a redacted field (as listed in RedactedFields)
	// that sanitize copies unredacted. Empty in production.
	skipRedaction string
	// marshal is the canonical serializer.
	marshal func(any) ([]byte, error)
	// marshalTree is the canonical serializer of parsed checkpoint JSON.
	marshalTree func(any) ([]byte, error)
	// envelope builds the value whose hash is the content hash.
	envelope func(createdAt string, payload *Payload, reason Reason) any
	// wrapPayload returns the canonical JSON of the hash envelope from the
	// canonical JSON of its payload, which validation already has. It
	// writes what marshal(envelope(…)) writes, so only the production
	// marshal and envelope have it; nil makes validation marshal the
	// envelope.
	wrapPayload func(createdAt string, payloadJSON []byte, reason Reason) ([]byte, error)
	// skipHashCheck turns off the hash comparison of validation.
	skipHashCheck bool
}

// defaults returns the production options.
func defaults() options {
	return options{redact: Redact, marshal: canon.Marshal, marshalTree: canon.MarshalTree, envelope: hashEnvelope, wrapPayload: wrapEnvelope}
}

// hashEnvelope is the value whose canonical JSON is hashed (CONTRACTS
// §11.5 step 4): {createdAt, payload, reason}. It refers to the payload
// rather than copying it into the envelope (a Payload is some 800 bytes,
// and the canonical encoder reads a struct reached through a pointer in
// place).
func hashEnvelope(createdAt string, payload *Payload, reason Reason) any {
	return &struct {
		CreatedAt string   `json:"createdAt"`
		Payload   *Payload `json:"payload"`
		Reason    Reason   `json:"reason"`
	}{createdAt, payload, reason}
}

// hash returns the content hash of a sanitized payload.
func (o options) hash(createdAt string, payload *Payload, reason Reason) (string, error) {
	b, err := o.marshal(o.envelope(createdAt, payload, reason))
	if err != nil {
		return "", err
	}
	return canon.HashBytes(b), nil
}

// wrapEnvelope writes the canonical JSON of hashEnvelope(createdAt, p,
// reason) around payloadJSON, the canonical JSON of p: its members are
// createdAt, payload and reason, in that (canonical) order.
func wrapEnvelope(createdAt string, payloadJSON []byte, reason Reason) ([]byte, error) {
	at, err := canon.Marshal(createdAt)
	if err != nil {
		return nil, err
	}
	r, err := canon.Marshal(string(reason))
	if err != nil {
		return nil, err
	}
	const open, mid, end = `{"createdAt":`, `,"payload":`, `,"reason":`
	b := make([]byte, 0, len(open)+len(at)+len(mid)+len(payloadJSON)+len(end)+len(r)+1)
	b = append(append(append(append(b, open...), at...), mid...), payloadJSON...)
	return append(append(append(b, end...), r...), '}'), nil
}

// sealedHash returns the content hash of a sanitized payload whose
// canonical JSON (by o.marshal) is payloadJSON.
func (o options) sealedHash(createdAt string, payload *Payload, payloadJSON []byte, reason Reason) (string, error) {
	if o.wrapPayload == nil {
		return o.hash(createdAt, payload, reason)
	}
	b, err := o.wrapPayload(createdAt, payloadJSON, reason)
	if err != nil {
		return "", err
	}
	return canon.HashBytes(b), nil
}
