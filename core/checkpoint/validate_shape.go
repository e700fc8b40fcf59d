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
	if !isObjectLike(np) {
		c.add(p, "noProgress must be an object when present.")
		return
	}
	c.rejectUnknown(np, p, "episodes", "failedToolFamilies", "hostStateVersions", "observationNudgeThresholds",
		"observationFamilies", "policy", "previousTool", "toolCycleSuffix")
	if v, _ := member(np, "episodes"); !nonNegativeInteger(v) {
		c.add(p+".episodes", "episodes must be a non-negative integer.")
	}
	if v, _ := member(np, "failedToolFamilies"); !isArray(v) {
		c.add(p+".failedToolFamilies", "failedToolFamilies must be an array.")
	} else {
		c.checkFamilies(v, p+".failedToolFamilies", "Failure family")
	}
	if v, ok := member(np, "hostStateVersions"); ok {
		path := p + ".hostStateVersions"
		if arr, isArr := v.([]any); !isArr {
			c.add(path, "hostStateVersions must be an array when present.")
		} else {
			if len(arr) > 128 {
				c.add(path, "hostStateVersions must contain at most 128 entries.")
			}
			for i, entry := range arr {
				ep := indexPath(path, i)
				if !isRecord(entry) {
					c.add(ep, "Host state version must be an object.")
					continue
				}
				c.rejectUnknown(entry, ep, "key", "value")
				if k, _ := member(entry, "key"); !nonEmptyString(k) {
					c.add(ep+".key", "key is required.")
				}
				if val, _ := member(entry, "value"); !nonEmptyString(val) {
					c.add(ep+".value", "value is required.")
				}
			}
		}
	}
	if v, ok := member(np, "observationFamilies"); ok {
		path := p + ".observationFamilies"
		if arr, isArr := v.([]any); !isArr {
			c.add(path, "observationFamilies must be an array when present.")
		} else {
			if len(arr) > 128 {
				c.add(path, "observationFamilies must contain at most 128 entries.")
			}
			c.checkFamilies(v, path, "Observation family")
		}
	}
	if v, ok := member(np, "policy"); ok && !oneOf(v, PolicyAdvisory, PolicyStrict) {
		c.add(p+".policy", "policy must be advisory or strict.")
	}
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
		if !isObjectLike(prev) {
			c.add(path, "previousTool must be an object or null.")
		} else {
			c.rejectUnknown(prev, path, "argumentsHash", "name", "repetitions")
			if v, _ := member(prev, "argumentsHash"); !nonEmptyString(v) {
				c.add(path+".argumentsHash", "argumentsHash is required.")
			}
			if v, _ := member(prev, "name"); !nonEmptyString(v) {
				c.add(path+".name", "name is required.")
			}
			if v, _ := member(prev, "repetitions"); !positiveInteger(v) {
				c.add(path+".repetitions", "repetitions must be positive.")
			}
		}
	}
	if v, ok := member(np, "toolCycleSuffix"); ok {
		path := p + ".toolCycleSuffix"
		if arr, isArr := v.([]any); !isArr {
			c.add(path, "toolCycleSuffix must be an array when present.")
		} else {
			if len(arr) > 12 {
				c.add(path, "toolCycleSuffix must contain at most 12 entries.")
			}
			for i, entry := range arr {
				ep := indexPath(path, i)
				if !isObjectLike(entry) {
					c.add(ep, "Tool cycle entry must be an object.")
					continue
				}
				c.rejectUnknown(entry, ep, "argumentsHash", "name")
				if v, _ := member(entry, "argumentsHash"); !nonEmptyString(v) {
					c.add(ep+".argumentsHash", "argumentsHash is required.")
				}
				if v, _ := member(entry, "name"); !nonEmptyString(v) {
					c.add(ep+".name", "name is required.")
				}
			}
		}
	}
}

// checkFamilies checks failure or observation families ({count, key}).
func (c *checker) checkFamilies(v any, path, label string) {
	for i, family := range v.([]any) {
		fp := indexPath(path, i)
		if !isObjectLike(family) {
			c.add(fp, label+" must be an object.")
			continue
		}
		c.rejectUnknown(family, fp, "count", "key")
		if k, _ := member(family, "key"); !nonEmptyString(k) {
			c.add(fp+".key", label+" key is required.")
		}
		if n, _ := member(family, "count"); !positiveInteger(n) {
			c.add(fp+".count", label+" count must be positive.")
		}
	}
}

func isArray(v any) bool {
	_, ok := v.([]any)
	return ok
}

// checkCriteria checks acceptanceCriteria.
func (c *checker) checkCriteria(v any) {
	const p = "acceptanceCriteria"
	arr, ok := v.([]any)
	if !ok {
		c.add(p, "acceptanceCriteria must be an array.")
		return
	}
	for i, cr := range arr {
		ip := indexPath(p, i)
		if !isObjectLike(cr) {
			c.add(ip, "Criterion must be an object.")
			continue
		}
		c.rejectUnknown(cr, ip, "evidenceIds", "id", "required", "status", "text")
		if x, _ := member(cr, "id"); !nonEmptyString(x) {
			c.add(ip+".id", "Criterion id is required.")
		}
		if x, _ := member(cr, "text"); !nonEmptyString(x) {
			c.add(ip+".text", "Criterion text is required.")
		}
		if x, _ := member(cr, "evidenceIds"); !stringArray(x) {
			c.add(ip+".evidenceIds", "evidenceIds must be a string array.")
		}
		if x, _ := member(cr, "required"); !isBool(x) {
			c.add(ip+".required", "Criterion required must be boolean.")
		}
		if x, _ := member(cr, "status"); !oneOf(x, CriterionPending, CriterionSatisfied, CriterionWaived) {
			c.add(ip+".status", "Criterion status is invalid.")
		}
	}
}

// checkCompatibility checks the compatibility record.
func (c *checker) checkCompatibility(v any) {
	const p = "compatibility"
	if !isObjectLike(v) {
		c.add(p, "compatibility is required.")
		return
	}
	c.rejectUnknown(v, p, "activeToolNames", "capabilitiesHash", "effectCapabilitiesHash", "modelIdentity",
		"promptHash", "promptVersion", "registrySnapshotHash", "systemPromptHash", "taskContractHash")
	for _, f := range []string{"capabilitiesHash", "effectCapabilitiesHash", "modelIdentity", "promptHash",
		"promptVersion", "registrySnapshotHash", "systemPromptHash", "taskContractHash"} {
		if x, _ := member(v, f); !nonEmptyString(x) {
			c.add(p+"."+f, f+" is required.")
		}
	}
	if x, _ := member(v, "activeToolNames"); !stringArray(x) {
		c.add(p+".activeToolNames", "activeToolNames must be a string array.")
	}
}

// checkCompletionEvidence checks completionEvidence and its diff review.
func (c *checker) checkCompletionEvidence(v any) {
	const p = "completionEvidence"
	if !isObjectLike(v) {
		c.add(p, "completionEvidence is required.")
		return
	}
	c.rejectUnknown(v, p, "diffReview")
	review, ok := member(v, "diffReview")
	if ok && review == nil {
		return
	}
	const rp = p + ".diffReview"
	if !isObjectLike(review) {
		c.add(rp, "diffReview must be an object or null.")
		return
	}
	c.rejectUnknown(review, rp, "diffHash", "sequence", "workspaceFingerprint")
	if x, _ := member(review, "diffHash"); !nonEmptyString(x) {
		c.add(rp+".diffHash", "diffHash is required.")
	}
	if x, _ := member(review, "sequence"); !nonNegativeInteger(x) {
		c.add(rp+".sequence", "sequence must be non-negative.")
	}
	if x, _ := member(review, "workspaceFingerprint"); !nonEmptyString(x) {
		c.add(rp+".workspaceFingerprint", "workspaceFingerprint is required.")
	}
}

// checkPlan checks the plan buckets.
func (c *checker) checkPlan(v any) {
	const p = "plan"
	if !isObjectLike(v) {
		c.add(p, "plan is required.")
		return
	}
	c.rejectUnknown(v, p, "completed", "inProgress", "pending")
	if x, _ := member(v, "completed"); !stringArray(x) {
		c.add(p+".completed", "plan.completed must be a string array.")
	}
	if x, _ := member(v, "pending"); !stringArray(x) {
		c.add(p+".pending", "plan.pending must be a string array.")
	}
	if x, ok := member(v, "inProgress"); !isNullOrString(x, ok) {
		c.add(p+".inProgress", "plan.inProgress must be a string or null.")
	}
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
