package checkpoint

import (
	"regexp"
	"sync"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/canon"
)

// httpURL is the original's /^https?:\/\//u.
var httpURL = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^https?://`) })

// checkResearchSources checks a present researchSources member.
func (c *checker) checkResearchSources(v any) {
	const p = "researchSources"
	arr, ok := c.array(v, p, "researchSources must be an array when present.")
	if !ok {
		return
	}
	if len(arr) > 24 {
		c.add(p, "researchSources must contain at most 24 entries.")
	}
	keys := map[string]bool{}
	known := []string{"contentHash", "kind", "sequence", "summary", "title", "toolCallId", "truncated", "url"}
	c.records(arr, p, "Research source must be an object.", known, func(src any, sp string) {
		kind, kindOK := member(src, "kind")
		c.need(src, sp, "kind", in(ResearchFetch, ResearchSearch), "Research source kind is invalid.")
		c.need(src, sp, "sequence", nonNegativeInteger, "Research source sequence must be non-negative.")
		c.need(src, sp, "summary", boundedText(1200), "Research source summary must contain 1-1200 characters.")
		c.may(src, sp, "title", func(x any) bool { s, ok := x.(string); return ok && utf8.RuneCountInString(s) <= 512 },
			"Research source title must contain at most 512 characters.")
		c.need(src, sp, "toolCallId", nonEmptyString, "Research source toolCallId is required.")
		c.need(src, sp, "truncated", isBool, "Research source truncated must be boolean.")
		c.need(src, sp, "url", isHTTPURL, "Research source URL must be a bounded public HTTP(S) URL.")
		c.needNullable(src, sp, "contentHash", "Research source contentHash must be a non-empty string or null.")
		if hash, _ := member(src, "contentHash"); kind == string(ResearchFetch) && !nonEmptyString(hash) {
			c.add(sp+".contentHash", "Fetched research sources require a content hash.")
		}
		if url, _ := member(src, "url"); nonEmptyString(url) {
			key := jsString(kind, kindOK) + ":" + url.(string)
			if keys[key] {
				c.add(sp+".url", "Research source kind and URL pairs must be unique.")
			}
			keys[key] = true
		}
	})
}

// boundedText is the rule "a non-empty string of at most max characters".
func boundedText(max int) rule {
	return func(v any) bool { return nonEmptyString(v) && utf8.RuneCountInString(v.(string)) <= max }
}

// isHTTPURL is the rule "a non-empty HTTP(S) URL of at most 4,096 UTF-16
// code units".
func isHTTPURL(v any) bool {
	return nonEmptyString(v) && canon.UTF16Len(v.(string)) <= 4096 && httpURL().MatchString(v.(string))
}

// checkWorkspace checks the workspace record and its active files.
func (c *checker) checkWorkspace(v any) {
	const p = "workspace"
	if !c.record(v, p, "workspace is required.", "activeFiles", "dirtyStateSummary", "instructions", "root", "stateFingerprint") {
		return
	}
	c.needStringOrNull(v, p, "root", "workspace.root must be a string or null.")
	c.needStringOrNull(v, p, "dirtyStateSummary", "workspace.dirtyStateSummary must be a string or null.")
	c.needNullable(v, p, "stateFingerprint", "workspace.stateFingerprint must be a non-empty string or null.")
	c.need(v, p, "instructions", stringArray, "workspace.instructions must be a string array.")
	files, ok := member(v, "activeFiles")
	arr, isArr := files.([]any)
	if !ok || !isArr {
		c.add(p+".activeFiles", "workspace.activeFiles must be an array.")
		return
	}
	for i, f := range arr {
		c.checkActiveFile(f, indexPath(p+".activeFiles", i))
	}
}

// checkActiveFile checks one active file.
func (c *checker) checkActiveFile(f any, fp string) {
	c.rejectUnknown(f, fp, "contentHash", "endLine", "kind", "path", "reason", "startLine")
	if path, _ := member(f, "path"); !isObjectLike(f) || !nonEmptyString(path) {
		c.add(fp+".path", "Active file path is required.")
		return
	}
	hash, hashOK := member(f, "contentHash")
	c.needNullable(f, fp, "contentHash", "contentHash must be a non-empty string or null.")
	kind, _ := member(f, "kind")
	c.may(f, fp, "kind", in(EntryKinds()...), "kind must be a supported workspace entry kind.")
	if oneOf(kind, KindDirectory, KindMissing) && !(hashOK && hash == nil) {
		c.add(fp+".contentHash", kind.(string)+" entries cannot carry a content hash.")
	}
	if oneOf(kind, KindFile, KindSymlink, KindOther) && !nonEmptyString(hash) {
		c.add(fp+".contentHash", kind.(string)+" entries require a content hash.")
	}
	c.may(f, fp, "startLine", positiveInteger, "startLine must be a positive integer.")
	c.may(f, fp, "endLine", positiveInteger, "endLine must be a positive integer.")
	start, _ := member(f, "startLine")
	end, _ := member(f, "endLine")
	if positiveInteger(start) && positiveInteger(end) {
		s, _ := number(start)
		e, _ := number(end)
		if e < s {
			c.add(fp+".endLine", "endLine must not precede startLine.")
		}
	}
	c.may(f, fp, "reason", nonEmptyString, "reason must be a non-empty string when present.")
}

// checkEdits checks the edits list.
func (c *checker) checkEdits(v any) {
	known := []string{"afterHash", "afterKind", "beforeHash", "beforeKind", "path", "sequence", "toolCallId", "workspaceFingerprint"}
	c.recordList(v, "edits", "edits must be an array.", "Edit must be an object.", known, func(e any, ep string) {
		c.need(e, ep, "path", nonEmptyString, "Edit path is required.")
		c.need(e, ep, "toolCallId", nonEmptyString, "Edit toolCallId is required.")
		c.need(e, ep, "sequence", nonNegativeInteger, "Edit sequence must be non-negative.")
		c.needNullable(e, ep, "beforeHash", "beforeHash must be a non-empty string or null.")
		c.needNullable(e, ep, "afterHash", "afterHash must be a non-empty string or null.")
		c.need(e, ep, "workspaceFingerprint", nonEmptyString, "workspaceFingerprint is required.")
		if !isMutationEvidence(e) {
			c.add(ep+".afterHash", "Edit kinds and hashes must prove a valid workspace state change.")
		}
	})
}

// isMutationEvidence is the original isAiCoderWorkspaceMutationEvidence
// (CONTRACTS §7.6) on a parsed record: hashes are null or non-blank; without
// kinds the hashes must differ and not both be null; with kinds both must be
// valid, each hash must fit its kind, and kind or hash must change.
func isMutationEvidence(e any) bool {
	before, beforeOK := member(e, "beforeHash")
	after, afterOK := member(e, "afterHash")
	if !isNullOrNonEmpty(before, beforeOK) || !isNullOrNonEmpty(after, afterOK) {
		return false
	}
	beforeKind, bkOK := member(e, "beforeKind")
	afterKind, akOK := member(e, "afterKind")
	if !bkOK && !akOK {
		return !(before == nil && after == nil) && before != after
	}
	if !oneOf(beforeKind, EntryKinds()...) || !oneOf(afterKind, EntryKinds()...) {
		return false
	}
	return stateFitsKind(EntryKind(beforeKind.(string)), before) &&
		stateFitsKind(EntryKind(afterKind.(string)), after) &&
		(beforeKind != afterKind || before != after)
}

// stateFitsKind: directories and missing entries have a null hash, other
// kinds a non-blank one.
func stateFitsKind(kind EntryKind, hash any) bool {
	if kind.HashFree() {
		return hash == nil
	}
	return nonEmptyString(hash)
}

// IsMutationEvidence reports whether e is valid typed mutation evidence
// (CONTRACTS §7.6): the legacy form without kinds needs two different
// hashes, not both nil; the typed form needs both kinds, hashes that fit
// them (nil for directory and missing, non-blank otherwise) and a change of
// kind or hash.
func IsMutationEvidence(e Edit) bool {
	obj := canon.Object{{Key: "afterHash", Value: ptrValue(e.AfterHash)}, {Key: "beforeHash", Value: ptrValue(e.BeforeHash)}}
	if e.AfterKind != "" {
		obj = append(obj, canon.Member{Key: "afterKind", Value: string(e.AfterKind)})
	}
	if e.BeforeKind != "" {
		obj = append(obj, canon.Member{Key: "beforeKind", Value: string(e.BeforeKind)})
	}
	return isMutationEvidence(obj)
}

// ptrValue is *p or nil.
func ptrValue(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// checkExecutionBudget checks the execution budget record.
func (c *checker) checkExecutionBudget(v any) {
	const p = "executionBudget"
	if !c.record(v, p, "executionBudget is required.", "deadlinePolicy", "persistenceGraceMs", "segmentDeadlineMs") {
		return
	}
	if x, _ := member(v, "deadlinePolicy"); x != DeadlinePerExecutionSegment {
		c.add(p+".deadlinePolicy", "deadlinePolicy must be per_execution_segment.")
	}
	c.need(v, p, "persistenceGraceMs", positiveInteger, "persistenceGraceMs must be a positive integer.")
	c.need(v, p, "segmentDeadlineMs", positiveInteger, "segmentDeadlineMs must be a positive integer.")
}

// checkValidation checks the validation records.
func (c *checker) checkValidation(v any) {
	known := []string{"command", "detail", "id", "paths", "scope", "sequence", "status", "workspaceFingerprint"}
	c.recordList(v, "validation", "validation must be an array.", "Validation must be an object.", known, func(rec any, vp string) {
		c.need(rec, vp, "id", nonEmptyString, "Validation id is required.")
		c.need(rec, vp, "detail", nonEmptyString, "Validation detail is required.")
		c.need(rec, vp, "sequence", nonNegativeInteger, "Validation sequence must be non-negative.")
		c.need(rec, vp, "status", in(ValidationFailed, ValidationNotRun, ValidationPassed), "Validation status is invalid.")
		paths, pathsOK := member(rec, "paths")
		if pathsOK && !stringArray(paths) {
			c.add(vp+".paths", "Validation paths must be a string array.")
		} else if pathsOK {
			for _, item := range paths.([]any) {
				if !nonEmptyString(item) {
					c.add(vp+".paths", "Validation paths must be non-empty strings.")
					break
				}
			}
		}
		c.need(rec, vp, "scope", in(ScopePaths, ScopeWorkspace), "Validation scope is invalid.")
		if scope, _ := member(rec, "scope"); scope == string(ScopePaths) && !nonEmptyArray(paths) {
			c.add(vp+".paths", "Path-scoped validation requires at least one path.")
		}
		c.need(rec, vp, "workspaceFingerprint", nonEmptyString, "workspaceFingerprint is required.")
		c.may(rec, vp, "command", nonEmptyString, "Validation command must be a non-empty string when present.")
	})
}

// nonEmptyArray is the rule "an array with at least one element".
func nonEmptyArray(v any) bool {
	arr, ok := v.([]any)
	return ok && len(arr) > 0
}

// checkLastToolCalls checks the recorded tool calls.
func (c *checker) checkLastToolCalls(v any) {
	known := []string{"argumentDigest", "argumentsHash", "idempotencyKey", "name", "outcome", "toolCallId"}
	c.recordList(v, "lastToolCalls", "lastToolCalls must be an array.", "Tool call must be an object.", known, func(call any, cp string) {
		c.need(call, cp, "toolCallId", nonEmptyString, "toolCallId is required.")
		c.need(call, cp, "name", nonEmptyString, "Tool name is required.")
		c.need(call, cp, "argumentsHash", nonEmptyString, "argumentsHash is required.")
		c.may(call, cp, "argumentDigest", nonEmptyString, "argumentDigest must be non-empty when present.")
		c.may(call, cp, "idempotencyKey", nonEmptyString, "idempotencyKey must be non-empty when present.")
		c.need(call, cp, "outcome", in(OutcomeCanceled, OutcomeFailed, OutcomeSucceeded, OutcomeUnknown), "Tool outcome is invalid.")
	})
}

// checkPendingApprovals checks the pending approvals.
func (c *checker) checkPendingApprovals(v any) {
	known := []string{"requestId", "returnPhase", "toolCallId", "toolName"}
	c.recordList(v, "pendingApprovals", "pendingApprovals must be an array.", "Pending approval must be an object.", known, func(a any, ap string) {
		c.need(a, ap, "requestId", nonEmptyString, "Approval requestId is required.")
		c.need(a, ap, "toolCallId", nonEmptyString, "Approval toolCallId is required.")
		c.need(a, ap, "toolName", nonEmptyString, "Approval toolName is required.")
		c.need(a, ap, "returnPhase", in(Phases()...), "Approval returnPhase is invalid.")
	})
}

// checkTotals checks the totals record.
func (c *checker) checkTotals(v any) {
	const p = "totals"
	if !c.record(v, p, "totals is required.", "compactionCount", "modelTurns", "toolCalls") {
		return
	}
	for _, f := range []string{"compactionCount", "modelTurns", "toolCalls"} {
		c.need(v, p, f, nonNegativeInteger, f+" must be a non-negative integer.")
	}
}
