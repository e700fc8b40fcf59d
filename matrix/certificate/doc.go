// Package certificate binds the verdict of a certification to what was
// tested, and checks that binding later (conform certify --certificate FILE,
// conform verify FILE).
//
// A [Certificate] records the SHA-256 of the result document the run wrote,
// of the host's executable and of every file its command line names (for a
// built-in host, the conform executable that serves it), conform's version
// and commit, the matrix version with one digest per certified item
// definition ([ItemDigest]: the item's metadata and its scenario files),
// the expectations file's digest or "strict", the OS and architecture, and
// the verdict. It is written as RFC 8785 canonical JSON, valid against
// schema/certificate.schema.json ([SchemaJSON]), and carries its own digest:
// SHA-256 over the canonical JSON of every other member, so that an edit of
// the certificate is found like a change of any input.
//
// [Verify] recomputes every binding and returns one [Change] per input that
// differs, each naming the input, what the certificate recorded and what
// was found.
package certificate
