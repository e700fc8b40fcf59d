package checkpoint

import (
	"github.com/galaxy-stack/conform/core/canon"
)

// Validate checks serialized checkpoint JSON as the original
// validateAiCoderRunCheckpoint does (CONTRACTS §11.6) and returns every
// issue found, or nil. It never panics. In order: the JSON must parse
// ("Checkpoint cannot be snapshotted safely: …" at "$"); it must be an
// object; unknown members at every level, forbidden secret or reasoning
// member names anywhere, the schema version (UNSUPPORTED_SCHEMA) and every
// field rule of §11.2 are checked; only if all passed, the relational rules
// (unique IDs, tool-call IDs known to seenToolCallIds, sequences within
// totals.toolCalls); only if those passed, the text must already be
// sanitized and the content hash must match (HASH_MISMATCH). Messages and
// paths are the original's.
//
// data is only read; later changes to it cannot affect the result.
func Validate(data []byte) []Issue {
	return defaults().validate(data)
}

func (o options) validate(data []byte) []Issue {
	tree, err := canon.Parse(data)
	if err != nil {
		return []Issue{{Code: CodeInvalidField, Message: "Checkpoint cannot be snapshotted safely: " + err.Error(), Path: "$"}}
	}
	return o.validateTree(tree)
}

// checker collects issues.
type checker struct {
	issues []Issue
}

// add records an INVALID_FIELD issue.
func (c *checker) add(path, message string) {
	c.issues = append(c.issues, Issue{Code: CodeInvalidField, Message: message, Path: path})
}

// rejectUnknown reports the members of item (if it is a non-array object)
// whose names are not allowed, in document order.
func (c *checker) rejectUnknown(item any, path string, allowed ...string) {
	obj, ok := item.(canon.Object)
	if !ok {
		return
	}
	for _, m := range obj {
		known := false
		for _, a := range allowed {
			known = known || a == m.Key
		}
		if !known {
			c.add(childPath(path, m.Key), "Unknown checkpoint field is not allowed.")
		}
	}
}

// topLevelFields are the members a checkpoint may have (CONTRACTS §11.2).
var topLevelFields = []string{
	"acceptanceCriteria", "approvals", "compatibility", "completionEvidence", "constraints", "contentHash",
	"createdAt", "decisions", "delivery", "edits", "executionBudget", "goal", "lastToolCalls", "nextAction",
	"noProgress", "openProblems", "pendingApprovals", "phase", "plan", "reason", "researchSources", "runId",
	"schemaVersion", "seenToolCallIds", "taskId", "tokenLedgerRef", "totals", "validation", "workspace",
}

// forbiddenKeys may not appear as member names anywhere (CONTRACTS §11.6
// step 4).
var forbiddenKeys = map[string]bool{
	"apiKey": true, "api_key": true, "password": true, "reasoning": true, "reasoningContent": true,
	"reasoning_content": true, "secret": true, "thinking": true, "accessToken": true, "refreshToken": true,
}

// validateTree runs the checks of [Validate] on a parsed tree.
func (o options) validateTree(tree any) []Issue {
	c := &checker{}
	if !isRecord(tree) {
		c.add("$", "Checkpoint must be an object.")
		return c.issues
	}
	c.rejectUnknown(tree, "", topLevelFields...)
	var forbidden []string
	walkForbidden(tree, "", &forbidden)
	for _, p := range forbidden {
		c.add(p, "Checkpoint contains a forbidden raw reasoning or secret field.")
	}
	c.checkShape(tree)
	if len(c.issues) > 0 {
		return c.issues
	}
	c.checkRelations(tree)
	if len(c.issues) > 0 {
		return c.issues
	}
	o.checkIntegrity(c, tree)
	if len(c.issues) == 0 {
		return nil
	}
	return c.issues
}

// walkForbidden collects the paths of forbidden member names, not walking
// below them. A parsed JSON tree has no shared or cyclic references, so the
// original's cycle issue cannot arise. Paths are built only for what it
// records or walks into.
func walkForbidden(item any, path string, out *[]string) {
	switch x := item.(type) {
	case []any:
		for i, child := range x {
			if isObjectLike(child) {
				walkForbidden(child, indexPath(path, i), out)
			}
		}
	case canon.Object:
		for _, m := range x {
			switch {
			case forbiddenKeys[m.Key]:
				*out = append(*out, childPath(path, m.Key))
			case isObjectLike(m.Value):
				walkForbidden(m.Value, childPath(path, m.Key), out)
			}
		}
	}
}
