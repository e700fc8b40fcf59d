package catalog

import "github.com/galaxy-stack/conform/core/schema"

// The shared schema fragments of CONTRACTS §6.1. Each call returns a fresh
// value, so descriptors never share maps.

// object returns an object schema with additionalProperties false (or the
// given schema) and required omitted when empty.
func object(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "additionalProperties": false, "properties": props}
	if len(required) > 0 {
		r := make([]any, len(required))
		for i, k := range required {
			r[i] = k
		}
		s["required"] = r
	}
	return s
}

// stringMap returns an object whose undeclared properties must be strings.
func stringMap() map[string]any {
	return map[string]any{"type": "object", "additionalProperties": str(), "properties": map[string]any{}}
}

// array returns an array schema of items with the given bounds; the
// fragments default to 0..200.
func array(items map[string]any, maxItems int, minItems ...int) map[string]any {
	lo := 0
	if len(minItems) > 0 {
		lo = minItems[0]
	}
	return map[string]any{"type": "array", "items": items, "minItems": lo, "maxItems": maxItems}
}

func str() map[string]any      { return map[string]any{"type": "string"} }
func nonEmpty() map[string]any { return map[string]any{"type": "string", "minLength": 1} }
func boolean() map[string]any  { return map[string]any{"type": "boolean"} }
func integer() map[string]any  { return map[string]any{"type": "integer"} }

func intMin(lo int) map[string]any { return map[string]any{"type": "integer", "minimum": lo} }

func intRange(lo, hi int) map[string]any {
	return map[string]any{"type": "integer", "minimum": lo, "maximum": hi}
}

func enum(values ...string) map[string]any {
	e := make([]any, len(values))
	for i, v := range values {
		e[i] = v
	}
	return map[string]any{"type": "string", "enum": e}
}

func described(s map[string]any, description string) map[string]any {
	s["description"] = description
	return s
}

// hashPattern accepts bare or "sha256:"-prefixed hex in either case
// (CONTRACTS §6.1, DECISIONS 36).
const hashPattern = "^(sha256:)?[a-fA-F0-9]{64}$"

func hash() map[string]any { return map[string]any{"type": "string", "pattern": hashPattern} }
func cursor() map[string]any {
	return map[string]any{"type": "string", "minLength": 1, "maxLength": 512}
}
func limit() map[string]any { return intRange(1, 200) }

// path is PATH, for outputs.
func path() map[string]any {
	return map[string]any{"type": "string", "minLength": 1, "maxLength": 4096}
}

// workspacePath is WORKSPACE_PATH, for inputs: PATH plus the portable
// workspace-relative rule, which conform evaluates as code (DECISIONS 37).
func workspacePath() map[string]any {
	return map[string]any{
		"type": "string", "minLength": 1, "maxLength": 4096,
		"pattern":     schema.WorkspacePathPattern,
		"description": "Workspace-relative POSIX path; '.' is the workspace root. No absolute paths, drive letters, backslashes, empty segments or '..' segments.",
	}
}

func trust() map[string]any {
	return enum("trusted_host", "untrusted_workspace", "untrusted_external", "untrusted_tool_output")
}

func provenance() map[string]any {
	return object(map[string]any{
		"source": nonEmpty(), "trust": trust(), "contentHash": hash(), "retrievedAt": str(),
	}, "source", "trust")
}

func searchMatch() map[string]any {
	return object(map[string]any{
		"id": nonEmpty(), "modelName": nonEmpty(), "title": nonEmpty(), "category": nonEmpty(), "active": boolean(),
	}, "id", "modelName", "title", "category", "active")
}

func fileEntry() map[string]any {
	return object(map[string]any{
		"path": path(), "name": nonEmpty(), "kind": enum("file", "directory", "symlink", "other"),
	}, "path", "name", "kind")
}

func textMatch() map[string]any {
	return object(map[string]any{
		"path": path(), "line": intMin(1), "column": intMin(1), "preview": str(), "contentHash": hash(),
	}, "path", "line", "preview")
}

func validationResult() map[string]any {
	return object(map[string]any{
		"check": nonEmpty(), "command": nonEmpty(),
		"status":   enum("passed", "failed", "timed_out", "cancelled", "skipped"),
		"exitCode": integer(), "summary": str(),
	}, "check", "status", "summary")
}

func derivedMutations() map[string]any {
	return object(map[string]any{
		"count": intMin(1), "paths": array(path(), 32, 1), "truncated": boolean(),
	}, "count", "paths", "truncated")
}

func taskCheckpoint() map[string]any {
	return object(map[string]any{
		"goal": nonEmpty(), "progress": str(), "decisions": array(str(), 32), "nextStep": str(), "updatedAt": str(),
	}, "goal", "progress", "decisions", "nextStep", "updatedAt")
}

func mutationPrecondition() map[string]any {
	return map[string]any{
		"description": `Write guard. New file: {"kind":"must_not_exist"}. Replacing a file: {"kind":"matches_sha256","contentSha256":"<contentHash from read_file>"}.`,
		"oneOf": []any{
			object(map[string]any{"kind": map[string]any{"const": "must_not_exist"}}, "kind"),
			object(map[string]any{"kind": map[string]any{"const": "matches_sha256"}, "contentSha256": hash()}, "kind", "contentSha256"),
		},
	}
}

func researchHit() map[string]any {
	return object(map[string]any{
		"title": nonEmpty(), "url": nonEmpty(), "snippet": str(), "provider": str(), "provenance": provenance(),
	}, "title", "url", "provenance")
}

// textModalities is TEXT: accepts text, produces structured data and text.
func textModalities() Modalities {
	return Modalities{Accepts: []string{ModalityText}, Produces: []string{ModalityStructuredData, ModalityText}}
}

// structuredModalities is STRUCTURED: accepts nothing, produces structured
// data and text.
func structuredModalities() Modalities {
	return Modalities{Accepts: []string{}, Produces: []string{ModalityStructuredData, ModalityText}}
}
