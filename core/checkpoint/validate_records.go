package checkpoint

import (
	"regexp"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/canon"
)

// httpURL is the original's /^https?:\/\//u.
var httpURL = regexp.MustCompile(`^https?://`)

// checkResearchSources checks a present researchSources member.
func (c *checker) checkResearchSources(v any) {
	const p = "researchSources"
	arr, ok := v.([]any)
	if !ok {
		c.add(p, "researchSources must be an array when present.")
		return
	}
	if len(arr) > 24 {
		c.add(p, "researchSources must contain at most 24 entries.")
	}
	keys := map[string]bool{}
	for i, src := range arr {
		sp := indexPath(p, i)
		if !isObjectLike(src) {
			c.add(sp, "Research source must be an object.")
			continue
		}
		c.rejectUnknown(src, sp, "contentHash", "kind", "sequence", "summary", "title", "toolCallId", "truncated", "url")
		kind, kindOK := member(src, "kind")
		if !oneOf(kind, ResearchFetch, ResearchSearch) {
			c.add(sp+".kind", "Research source kind is invalid.")
		}
		if x, _ := member(src, "sequence"); !nonNegativeInteger(x) {
			c.add(sp+".sequence", "Research source sequence must be non-negative.")
		}
		if x, _ := member(src, "summary"); !nonEmptyString(x) || utf8.RuneCountInString(x.(string)) > 1200 {
			c.add(sp+".summary", "Research source summary must contain 1-1200 characters.")
		}
		if x, ok := member(src, "title"); ok {
			if s, isStr := x.(string); !isStr || utf8.RuneCountInString(s) > 512 {
				c.add(sp+".title", "Research source title must contain at most 512 characters.")
			}
		}
		if x, _ := member(src, "toolCallId"); !nonEmptyString(x) {
			c.add(sp+".toolCallId", "Research source toolCallId is required.")
		}
		if x, _ := member(src, "truncated"); !isBool(x) {
			c.add(sp+".truncated", "Research source truncated must be boolean.")
		}
		url, _ := member(src, "url")
		if !nonEmptyString(url) || canon.UTF16Len(url.(string)) > 4096 || !httpURL.MatchString(url.(string)) {
			c.add(sp+".url", "Research source URL must be a bounded public HTTP(S) URL.")
		}
		hash, hashOK := member(src, "contentHash")
		if !isNullOrNonEmpty(hash, hashOK) {
			c.add(sp+".contentHash", "Research source contentHash must be a non-empty string or null.")
		}
		if kind == string(ResearchFetch) && !nonEmptyString(hash) {
			c.add(sp+".contentHash", "Fetched research sources require a content hash.")
		}
		if nonEmptyString(url) {
			key := jsString(kind, kindOK) + ":" + url.(string)
			if keys[key] {
				c.add(sp+".url", "Research source kind and URL pairs must be unique.")
			}
			keys[key] = true
		}
	}
}

// checkWorkspace checks the workspace record and its active files.
func (c *checker) checkWorkspace(v any) {
	const p = "workspace"
	if !isObjectLike(v) {
		c.add(p, "workspace is required.")
		return
	}
	c.rejectUnknown(v, p, "activeFiles", "dirtyStateSummary", "instructions", "root", "stateFingerprint")
	if x, ok := member(v, "root"); !isNullOrString(x, ok) {
		c.add(p+".root", "workspace.root must be a string or null.")
	}
	if x, ok := member(v, "dirtyStateSummary"); !isNullOrString(x, ok) {
		c.add(p+".dirtyStateSummary", "workspace.dirtyStateSummary must be a string or null.")
	}
	if x, ok := member(v, "stateFingerprint"); !isNullOrNonEmpty(x, ok) {
		c.add(p+".stateFingerprint", "workspace.stateFingerprint must be a non-empty string or null.")
	}
	if x, _ := member(v, "instructions"); !stringArray(x) {
		c.add(p+".instructions", "workspace.instructions must be a string array.")
	}
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
	if !isNullOrNonEmpty(hash, hashOK) {
		c.add(fp+".contentHash", "contentHash must be a non-empty string or null.")
	}
	kind, kindOK := member(f, "kind")
	if kindOK && !oneOf(kind, EntryKinds()...) {
		c.add(fp+".kind", "kind must be a supported workspace entry kind.")
	}
	if oneOf(kind, KindDirectory, KindMissing) && !(hashOK && hash == nil) {
		c.add(fp+".contentHash", kind.(string)+" entries cannot carry a content hash.")
	}
	if oneOf(kind, KindFile, KindSymlink, KindOther) && !nonEmptyString(hash) {
		c.add(fp+".contentHash", kind.(string)+" entries require a content hash.")
	}
	start, startOK := member(f, "startLine")
	if startOK && !positiveInteger(start) {
		c.add(fp+".startLine", "startLine must be a positive integer.")
	}
	end, endOK := member(f, "endLine")
	if endOK && !positiveInteger(end) {
		c.add(fp+".endLine", "endLine must be a positive integer.")
	}
	if positiveInteger(start) && positiveInteger(end) {
		s, _ := number(start)
		e, _ := number(end)
		if e < s {
			c.add(fp+".endLine", "endLine must not precede startLine.")
		}
	}
	if r, ok := member(f, "reason"); ok && !nonEmptyString(r) {
		c.add(fp+".reason", "reason must be a non-empty string when present.")
	}
}

// checkEdits checks the edits list.
func (c *checker) checkEdits(v any) {
	const p = "edits"
	arr, ok := v.([]any)
	if !ok {
		c.add(p, "edits must be an array.")
		return
	}
	for i, e := range arr {
		ep := indexPath(p, i)
		if !isObjectLike(e) {
			c.add(ep, "Edit must be an object.")
			continue
		}
		c.rejectUnknown(e, ep, "afterHash", "afterKind", "beforeHash", "beforeKind", "path", "sequence", "toolCallId", "workspaceFingerprint")
		if x, _ := member(e, "path"); !nonEmptyString(x) {
			c.add(ep+".path", "Edit path is required.")
		}
		if x, _ := member(e, "toolCallId"); !nonEmptyString(x) {
			c.add(ep+".toolCallId", "Edit toolCallId is required.")
		}
		if x, _ := member(e, "sequence"); !nonNegativeInteger(x) {
			c.add(ep+".sequence", "Edit sequence must be non-negative.")
		}
		if x, ok := member(e, "beforeHash"); !isNullOrNonEmpty(x, ok) {
			c.add(ep+".beforeHash", "beforeHash must be a non-empty string or null.")
		}
		if x, ok := member(e, "afterHash"); !isNullOrNonEmpty(x, ok) {
			c.add(ep+".afterHash", "afterHash must be a non-empty string or null.")
		}
		if x, _ := member(e, "workspaceFingerprint"); !nonEmptyString(x) {
			c.add(ep+".workspaceFingerprint", "workspaceFingerprint is required.")
		}
		if !isMutationEvidence(e) {
			c.add(ep+".afterHash", "Edit kinds and hashes must prove a valid workspace state change.")
		}
	}
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
	if !isObjectLike(v) {
		c.add(p, "executionBudget is required.")
		return
	}
	c.rejectUnknown(v, p, "deadlinePolicy", "persistenceGraceMs", "segmentDeadlineMs")
	if x, _ := member(v, "deadlinePolicy"); x != DeadlinePerExecutionSegment {
		c.add(p+".deadlinePolicy", "deadlinePolicy must be per_execution_segment.")
	}
	if x, _ := member(v, "persistenceGraceMs"); !positiveInteger(x) {
		c.add(p+".persistenceGraceMs", "persistenceGraceMs must be a positive integer.")
	}
	if x, _ := member(v, "segmentDeadlineMs"); !positiveInteger(x) {
		c.add(p+".segmentDeadlineMs", "segmentDeadlineMs must be a positive integer.")
	}
}

// checkValidation checks the validation records.
func (c *checker) checkValidation(v any) {
	const p = "validation"
	arr, ok := v.([]any)
	if !ok {
		c.add(p, "validation must be an array.")
		return
	}
	for i, rec := range arr {
		vp := indexPath(p, i)
		if !isObjectLike(rec) {
			c.add(vp, "Validation must be an object.")
			continue
		}
		c.rejectUnknown(rec, vp, "command", "detail", "id", "paths", "scope", "sequence", "status", "workspaceFingerprint")
		if x, _ := member(rec, "id"); !nonEmptyString(x) {
			c.add(vp+".id", "Validation id is required.")
		}
		if x, _ := member(rec, "detail"); !nonEmptyString(x) {
			c.add(vp+".detail", "Validation detail is required.")
		}
		if x, _ := member(rec, "sequence"); !nonNegativeInteger(x) {
			c.add(vp+".sequence", "Validation sequence must be non-negative.")
		}
		if x, _ := member(rec, "status"); !oneOf(x, ValidationFailed, ValidationNotRun, ValidationPassed) {
			c.add(vp+".status", "Validation status is invalid.")
		}
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
		scope, _ := member(rec, "scope")
		if !oneOf(scope, ScopePaths, ScopeWorkspace) {
			c.add(vp+".scope", "Validation scope is invalid.")
		}
		if arr, isArr := paths.([]any); scope == string(ScopePaths) && (!isArr || len(arr) == 0) {
			c.add(vp+".paths", "Path-scoped validation requires at least one path.")
		}
		if x, _ := member(rec, "workspaceFingerprint"); !nonEmptyString(x) {
			c.add(vp+".workspaceFingerprint", "workspaceFingerprint is required.")
		}
		if x, ok := member(rec, "command"); ok && !nonEmptyString(x) {
			c.add(vp+".command", "Validation command must be a non-empty string when present.")
		}
	}
}

// checkLastToolCalls checks the recorded tool calls.
func (c *checker) checkLastToolCalls(v any) {
	const p = "lastToolCalls"
	arr, ok := v.([]any)
	if !ok {
		c.add(p, "lastToolCalls must be an array.")
		return
	}
	for i, call := range arr {
		cp := indexPath(p, i)
		if !isObjectLike(call) {
			c.add(cp, "Tool call must be an object.")
			continue
		}
		c.rejectUnknown(call, cp, "argumentDigest", "argumentsHash", "idempotencyKey", "name", "outcome", "toolCallId")
		if x, _ := member(call, "toolCallId"); !nonEmptyString(x) {
			c.add(cp+".toolCallId", "toolCallId is required.")
		}
		if x, _ := member(call, "name"); !nonEmptyString(x) {
			c.add(cp+".name", "Tool name is required.")
		}
		if x, _ := member(call, "argumentsHash"); !nonEmptyString(x) {
			c.add(cp+".argumentsHash", "argumentsHash is required.")
		}
		if x, ok := member(call, "argumentDigest"); ok && !nonEmptyString(x) {
			c.add(cp+".argumentDigest", "argumentDigest must be non-empty when present.")
		}
		if x, ok := member(call, "idempotencyKey"); ok && !nonEmptyString(x) {
			c.add(cp+".idempotencyKey", "idempotencyKey must be non-empty when present.")
		}
		if x, _ := member(call, "outcome"); !oneOf(x, OutcomeCanceled, OutcomeFailed, OutcomeSucceeded, OutcomeUnknown) {
			c.add(cp+".outcome", "Tool outcome is invalid.")
		}
	}
}

// checkPendingApprovals checks the pending approvals.
func (c *checker) checkPendingApprovals(v any) {
	const p = "pendingApprovals"
	arr, ok := v.([]any)
	if !ok {
		c.add(p, "pendingApprovals must be an array.")
		return
	}
	for i, a := range arr {
		ap := indexPath(p, i)
		if !isObjectLike(a) {
			c.add(ap, "Pending approval must be an object.")
			continue
		}
		c.rejectUnknown(a, ap, "requestId", "returnPhase", "toolCallId", "toolName")
		if x, _ := member(a, "requestId"); !nonEmptyString(x) {
			c.add(ap+".requestId", "Approval requestId is required.")
		}
		if x, _ := member(a, "toolCallId"); !nonEmptyString(x) {
			c.add(ap+".toolCallId", "Approval toolCallId is required.")
		}
		if x, _ := member(a, "toolName"); !nonEmptyString(x) {
			c.add(ap+".toolName", "Approval toolName is required.")
		}
		if x, _ := member(a, "returnPhase"); !oneOf(x, Phases()...) {
			c.add(ap+".returnPhase", "Approval returnPhase is invalid.")
		}
	}
}

// checkTotals checks the totals record.
func (c *checker) checkTotals(v any) {
	const p = "totals"
	if !isObjectLike(v) {
		c.add(p, "totals is required.")
		return
	}
	c.rejectUnknown(v, p, "compactionCount", "modelTurns", "toolCalls")
	for _, f := range []string{"compactionCount", "modelTurns", "toolCalls"} {
		if x, _ := member(v, f); !nonNegativeInteger(x) {
			c.add(p+"."+f, f+" must be a non-negative integer.")
		}
	}
}
