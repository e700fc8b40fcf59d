package reference

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/schema"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// This file holds the fault seams of the tool executor that need more
// than a condition in place; see Faults.

// inputSchema is the schema a call's arguments are validated against: the
// descriptor's, or under the workspace AcceptDotDot fault a copy without
// the workspace-path pattern, so that ".." reaches the workspace.
func (s *session) inputSchema(d catalog.Descriptor) map[string]any {
	if !s.faults.Workspace.AcceptDotDot {
		return d.InputSchema
	}
	out, _ := withoutPathPattern(d.InputSchema).(map[string]any)
	return out
}

func withoutPathPattern(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			if k == "pattern" && x == schema.WorkspacePathPattern {
				continue
			}
			out[k] = withoutPathPattern(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = withoutPathPattern(x)
		}
		return out
	}
	return v
}

// failedEffects are the effects of an ok=false result: none, or under the
// FailedResultEffects fault a write of the mutation's target, from its
// current content to itself.
func (s *session) failedEffects(c *call) *port.Effects {
	if !s.faults.FailedResultEffects && !s.faults.FailureStateVersion || c.desc.Mutability == catalog.MutabilityRead {
		return nil
	}
	p, _ := c.args["path"].(string)
	data, err := os.ReadFile(filepath.Join(s.root.Dir(), filepath.FromSlash(p)))
	if p == "" || err != nil {
		return nil
	}
	h := workspace.HashPrefix + workspace.SHA256Hex(data)
	if s.faults.FailureStateVersion {
		return &port.Effects{StateVersion: h}
	}
	return &port.Effects{Writes: []port.Write{{Path: p, BeforeKind: workspace.KindFile, BeforeHash: &h, AfterKind: workspace.KindFile, AfterHash: &h}}}
}

// derivedWrites turns the derived changes of a diff into file write
// evidence whose hash is the metadata fingerprint: the DerivedAsWrite
// fault.
func derivedWrites(d workspace.Diff) workspace.Diff {
	for _, m := range d.Observed {
		if m.EvidenceClass != workspace.Derived {
			continue
		}
		w := port.Write{Path: m.Path, BeforeKind: m.BeforeKind, AfterKind: m.AfterKind}
		if m.BeforeKind != workspace.KindMissing && m.BeforeKind != workspace.KindDirectory && m.BeforeFingerprint != nil {
			h := workspace.HashPrefix + *m.BeforeFingerprint
			w.BeforeHash = &h
		}
		if m.AfterKind != workspace.KindMissing && m.AfterKind != workspace.KindDirectory && m.AfterFingerprint != nil {
			h := workspace.HashPrefix + *m.AfterFingerprint
			w.AfterHash = &h
		}
		d.Writes = append(d.Writes, w)
	}
	return d
}

// unknownResult answers a call whose side effects are unknown after
// dispatch: the unknown-outcome error, or under the UnknownOutcomeAsFailure
// fault an ordinary retryable IO_ERROR result, as a catch-all handler
// would.
func (s *session) unknownResult(c *call, reason string) (port.ToolResult, error) {
	if s.faults.UnknownOutcomeAsFailure {
		return errorResult(c.desc.ID, c.p.CallID, &toolError{Code: "IO_ERROR", Message: reason, Retryable: true}, nil), nil
	}
	if s.faults.UnknownOutcomeAsPrecondition {
		return errorResult(c.desc.ID, c.p.CallID, &toolError{Code: "PRECONDITION_FAILED", Message: reason}, nil), nil
	}
	return port.ToolResult{}, wire.UnknownOutcomeError(c.desc.ID, reason)
}

// commandWrites reports whether a finished command's observed changes
// become write evidence: always, except under the DropPartialCommandWrites
// fault for a command that did not exit on its own (timed out or canceled).
func (s *session) commandWrites(status command.ExitStatus) bool {
	return !s.faults.DropPartialCommandWrites || status == command.StatusExited
}

// untypedWrites rewrites the write evidence of a diff as the
// UntypedEntryWrites fault does: every side that is a directory, a symlink
// or a special entry becomes a regular file whose hash is the side's
// fingerprint (a directory, which has none, gets the hash of its kind).
func untypedWrites(d workspace.Diff) workspace.Diff {
	retype := func(kind string, hash *string) (string, *string) {
		switch kind {
		case workspace.KindDirectory, workspace.KindSymlink, workspace.KindOther:
			if hash == nil {
				h := workspace.HashPrefix + workspace.SHA256Hex([]byte(kind+"\x00"))
				hash = &h
			}
			return workspace.KindFile, hash
		}
		return kind, hash
	}
	writes := make([]port.Write, len(d.Writes))
	for i, w := range d.Writes {
		w.BeforeKind, w.BeforeHash = retype(w.BeforeKind, w.BeforeHash)
		w.AfterKind, w.AfterHash = retype(w.AfterKind, w.AfterHash)
		writes[i] = w
	}
	d.Writes = writes
	return d
}

// Store, trace and fingerprint seams (items 10, 11, 12, 40, 41).

// storeGetFaults rewrites store/get's entries: none under StoreGetNothing
// (StoreGetOldest already read them oldest first).
func (s *session) storeGetFaults(entries []wire.StoreEntry) []wire.StoreEntry {
	if s.faults.StoreGetNothing {
		return nil
	}
	return entries
}

// alwaysMatches is the FingerprintAlwaysMatches answer to a verify of
// state: it matches, whatever the workspace holds.
func alwaysMatches(state wire.WorkspaceState) wire.FingerprintResult {
	m := true
	return wire.FingerprintResult{CurrentFingerprint: state.StateFingerprint, Matches: &m}
}

// validationID is the ID of a project.validate validation: the check and
// the path, or under the TimedValidationIDs fault those and the wall-clock
// time and the process ID.
func (s *session) validationID(check, rel string) string {
	id := "project.validate:" + check + ":" + rel
	if s.faults.TimedValidationIDs {
		id += fmt.Sprintf("@%d.%d", time.Now().UnixNano(), os.Getpid())
	}
	return id
}
