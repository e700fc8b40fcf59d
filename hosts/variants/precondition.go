package variants

import (
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

// cCheckOrder is the choice the precondition-first variant takes.
const cCheckOrder = "Which of two failed checks a mutation reports is the host's: a non-UTF-8 target is INVALID_INPUT and a stale hash PRECONDITION_FAILED (workspace.write, workspace.edit), and the seed orders neither first (S000 item 32: \"invalid UTF-8 is rejected by text mutation paths without rewriting bytes or replacing the inode\")."

// preconditionFirst checks a mutation's precondition against the raw bytes
// of a non-UTF-8 target before refusing the bytes (matrix item 32).
func preconditionFirst() Variant {
	return Variant{Name: "precondition-first", Choice: cCheckOrder,
		Description: "checks a write's or edit's precondition before the target's UTF-8 validity, so a stale hash on a non-UTF-8 file is PRECONDITION_FAILED",
		Options:     reference.Options{Choices: reference.Choices{Workspace: workspace.Choices{PreconditionFirst: true}}}}
}
