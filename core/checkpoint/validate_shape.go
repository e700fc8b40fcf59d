package checkpoint

import (
	"fmt"
)

// checkShape applies the field rules of CONTRACTS §11.2 in the original's
// order, starting after the unknown and forbidden member checks.
func (c *checker) checkShape(cp any) {
	get := func(key string) (any, bool) { return member(cp, key) }
	field := func(key string) any { v, _ := member(cp, key); return v }
	if v, _ := get("schemaVersion"); !isSchemaVersion(v) {
		c.issues = append(c.issues, Issue{Code: CodeUnsupportedSchema, Message: "Unsupported checkpoint schema version.", Path: "schemaVersion"})
	}
	for _, f := range []string{"runId", "taskId", "goal", "nextAction", "tokenLedgerRef", "contentHash"} {
		if v, _ := get(f); !nonEmptyString(v) {
			c.add(f, f+" must be a non-empty string.")
		}
	}
	if v, _ := get("createdAt"); !isTimestamp(v) {
		c.add("createdAt", "createdAt must be a canonical ISO-8601 timestamp.")
	}
	if v, _ := get("reason"); !oneOf(v, Reasons()...) {
		c.add("reason", "Checkpoint reason is invalid.")
	}
	for _, f := range []string{"approvals", "constraints", "decisions", "openProblems", "seenToolCallIds"} {
		if v, _ := get(f); !stringArray(v) {
			c.add(f, f+" must be a string array.")
		}
	}
	if v, ok := get("noProgress"); ok {
		c.checkNoProgress(v)
	}
	c.checkCriteria(field("acceptanceCriteria"))
	c.checkCompatibility(field("compatibility"))
	c.checkCompletionEvidence(field("completionEvidence"))
	delivery, _ := get("delivery")
	if d, _ := member(delivery, "attachmentsDelivered"); !isObjectLike(delivery) || !isBool(d) {
		c.add("delivery.attachmentsDelivered", "delivery.attachmentsDelivered must be boolean.")
	}
	c.rejectUnknown(delivery, "delivery", "attachmentsDelivered")
	c.checkPlan(field("plan"))
	if v, ok := get("researchSources"); ok {
		c.checkResearchSources(v)
	}
	if v, _ := get("phase"); !oneOf(v, Phases()...) {
		c.add("phase", "Checkpoint phase is invalid.")
	}
	c.checkWorkspace(field("workspace"))
	c.checkEdits(field("edits"))
	c.checkExecutionBudget(field("executionBudget"))
	c.checkValidation(field("validation"))
	c.checkLastToolCalls(field("lastToolCalls"))
	c.checkPendingApprovals(field("pendingApprovals"))
	c.checkTotals(field("totals"))
}

func isSchemaVersion(v any) bool {
	f, ok := number(v)
	return ok && f == SchemaVersion
}

func isTimestamp(v any) bool {
	s, ok := v.(string)
	return ok && !isBlankString(s) && IsCanonicalTimestamp(s)
}

func isBlankString(s string) bool { return !nonEmptyString(s) }

func isBool(v any) bool {
	_, ok := v.(bool)
	return ok
}

// checkNoProgress checks a present noProgress member.
func (c *checker) checkNoProgress(np any) {
	const p = "noProgress"
	if !c.record(np, p, "noProgress must be an object when present.", "episodes", "failedToolFamilies", "hostStateVersions",
		"observationNudgeThresholds", "observationFamilies", "policy", "previousTool", "toolCycleSuffix") {
		return
	}
	c.need(np, p, "episodes", nonNegativeInteger, "episodes must be a non-negative integer.")
	if v, _ := member(np, "failedToolFamilies"); !isArray(v) {
		c.add(p+".failedToolFamilies", "failedToolFamilies must be an array.")
	} else {
		c.checkFamilies(v.([]any), p+".failedToolFamilies", "Failure family")
	}
	if arr, ok := c.boundedArray(np, p, "hostStateVersions", 128); ok {
		path := p + ".hostStateVersions"
		for i, entry := range arr {
			ep := indexPath(path, i)
			if !isRecord(entry) {
				c.add(ep, "Host state version must be an object.")
				continue
			}
			c.rejectUnknown(entry, ep, "key", "value")
			c.need(entry, ep, "key", nonEmptyString, "key is required.")
			c.need(entry, ep, "value", nonEmptyString, "value is required.")
		}
	}
	if arr, ok := c.boundedArray(np, p, "observationFamilies", 128); ok {
		c.checkFamilies(arr, p+".observationFamilies", "Observation family")
	}
	c.may(np, p, "policy", in(PolicyAdvisory, PolicyStrict), "policy must be advisory or strict.")
	if v, ok := member(np, "observationNudgeThresholds"); ok {
		path := p + ".observationNudgeThresholds"
		arr, isArr := v.([]any)
		if !isArr || len(arr) == 0 || len(arr) > 8 {
			c.add(path, "observationNudgeThresholds must contain 1 to 8 thresholds when present.")
		} else {
			seen := map[float64]bool{}
			for i, t := range arr {
				f, ok := safeInteger(t)
				switch {
				case !ok || f < 2:
					c.add(indexPath(path, i), "Thresholds must be integers >= 2.")
				case seen[f]:
					c.add(indexPath(path, i), fmt.Sprintf("Threshold %d is duplicated.", int64(f)))
				default:
					seen[f] = true
				}
			}
		}
	}
	if prev, ok := member(np, "previousTool"); !ok || prev != nil {
		path := p + ".previousTool"
		if c.record(prev, path, "previousTool must be an object or null.", "argumentsHash", "name", "repetitions") {
			c.need(prev, path, "argumentsHash", nonEmptyString, "argumentsHash is required.")
			c.need(prev, path, "name", nonEmptyString, "name is required.")
			c.need(prev, path, "repetitions", positiveInteger, "repetitions must be positive.")
		}
	}
	if arr, ok := c.boundedArray(np, p, "toolCycleSuffix", 12); ok {
		c.records(arr, p+".toolCycleSuffix", "Tool cycle entry must be an object.", []string{"argumentsHash", "name"}, func(entry any, ep string) {
			c.need(entry, ep, "argumentsHash", nonEmptyString, "argumentsHash is required.")
			c.need(entry, ep, "name", nonEmptyString, "name is required.")
		})
	}
}

// boundedArray checks rec's optional member key (at path.key): when
// present it must be an array of at most max entries. It returns the array
// when the member is one.
func (c *checker) boundedArray(rec any, path, key string, max int) ([]any, bool) {
	v, present := member(rec, key)
	if !present {
		return nil, false
	}
	path += "." + key
	arr, ok := c.array(v, path, key+" must be an array when present.")
	if ok && len(arr) > max {
		c.add(path, fmt.Sprintf("%s must contain at most %d entries.", key, max))
	}
	return arr, ok
}

// checkFamilies checks failure or observation families ({count, key}).
func (c *checker) checkFamilies(arr []any, path, label string) {
	c.records(arr, path, label+" must be an object.", []string{"count", "key"}, func(family any, fp string) {
		c.need(family, fp, "key", nonEmptyString, label+" key is required.")
		c.need(family, fp, "count", positiveInteger, label+" count must be positive.")
	})
}

func isArray(v any) bool {
	_, ok := v.([]any)
	return ok
}

// checkCriteria checks acceptanceCriteria.
func (c *checker) checkCriteria(v any) {
	known := []string{"evidenceIds", "id", "required", "status", "text"}
	c.recordList(v, "acceptanceCriteria", "acceptanceCriteria must be an array.", "Criterion must be an object.", known, func(cr any, ip string) {
		c.need(cr, ip, "id", nonEmptyString, "Criterion id is required.")
		c.need(cr, ip, "text", nonEmptyString, "Criterion text is required.")
		c.need(cr, ip, "evidenceIds", stringArray, "evidenceIds must be a string array.")
		c.need(cr, ip, "required", isBool, "Criterion required must be boolean.")
		c.need(cr, ip, "status", in(CriterionPending, CriterionSatisfied, CriterionWaived), "Criterion status is invalid.")
	})
}

// checkCompatibility checks the compatibility record.
func (c *checker) checkCompatibility(v any) {
	const p = "compatibility"
	if !c.record(v, p, "compatibility is required.", "activeToolNames", "capabilitiesHash", "effectCapabilitiesHash", "modelIdentity",
		"promptHash", "promptVersion", "registrySnapshotHash", "systemPromptHash", "taskContractHash") {
		return
	}
	for _, f := range []string{"capabilitiesHash", "effectCapabilitiesHash", "modelIdentity", "promptHash",
		"promptVersion", "registrySnapshotHash", "systemPromptHash", "taskContractHash"} {
		c.need(v, p, f, nonEmptyString, f+" is required.")
	}
	c.need(v, p, "activeToolNames", stringArray, "activeToolNames must be a string array.")
}

// checkCompletionEvidence checks completionEvidence and its diff review.
func (c *checker) checkCompletionEvidence(v any) {
	const p = "completionEvidence"
	if !c.record(v, p, "completionEvidence is required.", "diffReview") {
		return
	}
	review, ok := member(v, "diffReview")
	if ok && review == nil {
		return
	}
	const rp = p + ".diffReview"
	if !c.record(review, rp, "diffReview must be an object or null.", "diffHash", "sequence", "workspaceFingerprint") {
		return
	}
	c.need(review, rp, "diffHash", nonEmptyString, "diffHash is required.")
	c.need(review, rp, "sequence", nonNegativeInteger, "sequence must be non-negative.")
	c.need(review, rp, "workspaceFingerprint", nonEmptyString, "workspaceFingerprint is required.")
}

// checkPlan checks the plan buckets.
func (c *checker) checkPlan(v any) {
	const p = "plan"
	if !c.record(v, p, "plan is required.", "completed", "inProgress", "pending") {
		return
	}
	c.need(v, p, "completed", stringArray, "plan.completed must be a string array.")
	c.need(v, p, "pending", stringArray, "plan.pending must be a string array.")
	c.needStringOrNull(v, p, "inProgress", "plan.inProgress must be a string or null.")
}

// isNullOrString is `v === null || typeof v === "string"` (a missing member
// is neither).
func isNullOrString(v any, present bool) bool {
	if !present {
		return false
	}
	if v == nil {
		return true
	}
	_, ok := v.(string)
	return ok
}

// isNullOrNonEmpty is `v === null || nonEmptyString(v)`.
func isNullOrNonEmpty(v any, present bool) bool {
	return (present && v == nil) || nonEmptyString(v)
}
