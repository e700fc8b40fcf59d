package replay

import (
	"strings"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// CheckOrderCode is the error code the transcript records for a rejected
// write_file or edit_file whose matches_sha256 precondition was stale when
// the host answered INVALID_INPUT or PRECONDITION_FAILED: which of the two
// failed checks a host reports first is its own choice (CONTRACTS.md,
// "Host's choices": "a write_file or edit_file whose target is not valid
// UTF-8 and whose matches_sha256 precondition is also stale may answer
// INVALID_INPUT or PRECONDITION_FAILED").
const CheckOrderCode = "INVALID_INPUT|PRECONDITION_FAILED"

// checkOrderTools are the canonical IDs of the text mutations whose check
// order is the host's.
var checkOrderTools = map[string]bool{"workspace.write": true, "workspace.edit": true}

// contents follows what the transcript knows of each workspace file's
// content hash while it is built: the harness's snapshot before the first
// execution, then every write a result attests. It is what tells a stale
// precondition from a fresh one.
type contents struct {
	hash map[string]string // path → bare lowercase hex of a file; "" for a file whose hash is unknown
	// known says whether an initial snapshot was there: without it, a
	// path absent from hash is not known to be missing.
	known bool
	calls map[string]map[string]any // toolCallId → arguments of the call
}

func newContents(initial snapshot.Snapshot) *contents {
	c := &contents{hash: map[string]string{}, known: initial != nil, calls: map[string]map[string]any{}}
	for _, e := range initial {
		if e.Kind == effects.KindFile {
			c.hash[e.Path] = bare(e.Hash)
		}
	}
	return c
}

// started records the arguments of a call that starts.
func (c *contents) started(call *port.ToolCall) {
	if call != nil {
		c.calls[call.ToolCallID] = call.Arguments
	}
}

// result normalizes r, a call's result, and then records the
// writes it attests.
func (c *contents) result(r *Result, fx *port.Effects) {
	if !r.OK && checkOrderTools[r.CanonicalToolID] && (r.ErrorCode == "INVALID_INPUT" || r.ErrorCode == "PRECONDITION_FAILED") && c.stale(r.ID) {
		r.ErrorCode = CheckOrderCode
	}
	if fx == nil {
		return
	}
	for _, w := range fx.Writes {
		switch {
		case w.AfterKind == effects.KindFile && w.AfterHash != nil:
			c.hash[w.Path] = bare(*w.AfterHash)
		case w.AfterKind == effects.KindFile:
			c.hash[w.Path] = ""
		default:
			delete(c.hash, w.Path)
		}
	}
}

// stale reports whether the call id carried a matches_sha256 precondition
// on a file whose content hash the transcript knows to be another, or does
// not know. A target known to be missing is not a stale file: it has no
// bytes to be invalid UTF-8, so PRECONDITION_FAILED is the one answer.
func (c *contents) stale(id string) bool {
	args := c.calls[id]
	pre, _ := args["precondition"].(map[string]any)
	if pre == nil || pre["kind"] != "matches_sha256" {
		return false
	}
	want, _ := pre["contentSha256"].(string)
	path, _ := args["path"].(string)
	have, file := c.hash[strings.TrimPrefix(path, "./")]
	if !file {
		return !c.known
	}
	return have == "" || bare(want) != have
}

func bare(h string) string { return strings.ToLower(strings.TrimPrefix(h, "sha256:")) }
