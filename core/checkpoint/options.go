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
	// envelope builds the value whose hash is the content hash.
	envelope func(createdAt string, payload Payload, reason Reason) any
	// skipHashCheck turns off the hash comparison of validation.
	skipHashCheck bool
}

// defaults returns the production options.
func defaults() options {
	return options{redact: Redact, marshal: canon.Marshal, envelope: hashEnvelope}
}

// hashEnvelope is the value whose canonical JSON is hashed (CONTRACTS
// §11.5 step 4): {createdAt, payload, reason}.
func hashEnvelope(createdAt string, payload Payload, reason Reason) any {
	return struct {
		CreatedAt string  `json:"createdAt"`
		Payload   Payload `json:"payload"`
		Reason    Reason  `json:"reason"`
	}{createdAt, payload, reason}
}

// hash returns the content hash of a sanitized payload.
func (o options) hash(createdAt string, payload Payload, reason Reason) (string, error) {
	b, err := o.marshal(o.envelope(createdAt, payload, reason))
	if err != nil {
		return "", err
	}
	return canon.HashBytes(b), nil
}
