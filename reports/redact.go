package reports

import "github.com/galaxy-stack/conform/internal/redact"

// Redact replaces, in place, every secret in every string of d, by value
// and by shape (package redact): the host's name and version, the items'
// reasons quoting what a host sent or printed, and whatever a document
// from elsewhere holds. The commands call it where a document is finished
// or read, so that what they write, print and render from it is
// redacted.
func Redact(d *Document) { redact.Walk(d) }
