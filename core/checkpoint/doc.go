// Package checkpoint is the run checkpoint of CONTRACTS §11: the durable,
// provider-neutral state that compaction, pause and crash recovery resume
// from. It never holds raw model thinking or raw tool output.
//
//	cp, err := checkpoint.Create(payload, checkpoint.ReasonPause, checkpoint.FormatTimestamp(clock.Now()))
//	data, err := checkpoint.Serialize(cp)       // canonical JSON, what a store keeps
//	back, err := checkpoint.Assert(data)        // validated, tamper-checked, fresh copy
//	err = checkpoint.CheckCompatibility(back, target) // resume rules, CHECKPOINT_INCOMPATIBLE
//
// # Creation and hash
//
// [Create] sanitizes the payload ([Sanitize]: free text goes through
// [Redact], see [RedactedFields]) and sets contentHash to the SHA-256 of the
// canonical JSON (RFC 8785) of {createdAt, payload, reason}, written
// "sha256:<hex>". conform's hash is its own (DESIGN "Hashes"); it need not
// equal the original runtime's.
//
// # Validation
//
// [Validate] and [Assert] check serialized JSON with the original
// validator's rules, order, paths and messages (CONTRACTS §11.6): unknown
// and forbidden members, the schema version, every field shape, the
// relational rules, unsanitized text and the content hash. Any single-byte
// change of a serialized checkpoint is caught.
//
// # Copies
//
// A [Checkpoint] is a plain value with slices and pointers. Stores must
// clone on read and on write ([Checkpoint.Clone]); [Assert] and [Create]
// return values that share nothing with their inputs.
//
// # Not ported
//
// The original validator reports shared or cyclic object references; a
// parsed JSON document has none. Integers must be safe (|n| ≤ 2^53−1) to
// fit int64. The runtime's payload also carries editsTotal, plan.steps and
// planMode; the checkpoint module drops or rejects them (plan mode is
// deferred, DECISIONS 15 and 17), so they are not fields here.
package checkpoint
