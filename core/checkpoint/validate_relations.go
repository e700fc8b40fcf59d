package checkpoint

import (
	"bytes"
	"encoding/json"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/faults"
)

// checkRelations applies the relational rules of CONTRACTS §11.6 step 8 to
// a checkpoint whose shapes are valid.
func (c *checker) checkRelations(cp any) {
	get := func(key string) []any {
		v, _ := member(cp, key)
		arr, _ := v.([]any)
		return arr
	}
	seenList := get("seenToolCallIds")
	if hasDuplicates(seenList) {
		c.add("seenToolCallIds", "seenToolCallIds must not contain duplicates.")
	}
	criteria := get("acceptanceCriteria")
	if hasDuplicates(fieldOf(criteria, "id")) {
		c.add("acceptanceCriteria", "Acceptance criterion ids must be unique.")
	}
	for i, cr := range criteria {
		status, _ := member(cr, "status")
		ids, _ := member(cr, "evidenceIds")
		if status == string(CriterionSatisfied) && len(ids.([]any)) == 0 {
			c.add(indexPath("acceptanceCriteria", i)+".evidenceIds", "A satisfied criterion requires evidence.")
		}
	}
	approvals := get("pendingApprovals")
	if hasDuplicates(fieldOf(approvals, "requestId")) {
		c.add("pendingApprovals", "Pending approval request ids must be unique.")
	}
	compat, _ := member(cp, "compatibility")
	names, _ := member(compat, "activeToolNames")
	if hasDuplicates(names.([]any)) {
		c.add("compatibility.activeToolNames", "activeToolNames must not contain duplicates.")
	}
	seen := map[any]bool{}
	for _, id := range seenList {
		seen[id] = true
	}
	totals, _ := member(cp, "totals")
	toolCallsValue, _ := member(totals, "toolCalls")
	toolCalls, _ := number(toolCallsValue)
	exceeds := func(rec any) bool {
		seq, _ := member(rec, "sequence")
		f, _ := number(seq)
		return f > toolCalls
	}
	known := func(rec any) bool {
		id, _ := member(rec, "toolCallId")
		return seen[id]
	}
	// relate checks each record of list key: its toolCallId is a seen one
	// (unless unseen is "") and its sequence within the totals (unless
	// late is ""), adding those messages when it is not.
	relate := func(key, unseen, late string) {
		for i, rec := range get(key) {
			if unseen != "" && !known(rec) {
				c.add(indexPath(key, i)+".toolCallId", unseen)
			}
			if late != "" && exceeds(rec) {
				c.add(indexPath(key, i)+".sequence", late)
			}
		}
	}
	relate("edits", "Edit toolCallId is absent from seenToolCallIds.", "Edit sequence exceeds totals.toolCalls.")
	relate("validation", "", "Validation sequence exceeds totals.toolCalls.")
	relate("researchSources", "Research source toolCallId is absent from seenToolCallIds.", "Research source sequence exceeds totals.toolCalls.")
	relate("lastToolCalls", "Tool call is absent from seenToolCallIds.", "")
	relate("pendingApprovals", "Approval toolCallId is absent from seenToolCallIds.", "")
	for i, cr := range criteria {
		ids, _ := member(cr, "evidenceIds")
		for j, id := range ids.([]any) {
			if !seen[id] {
				c.add(indexPath(indexPath("acceptanceCriteria", i)+".evidenceIds", j), "Criterion evidence is absent from seenToolCallIds.")
			}
		}
	}
}

// fieldOf collects the named member of each record.
func fieldOf(records []any, key string) []any {
	out := make([]any, len(records))
	for i, r := range records {
		out[i], _ = member(r, key)
	}
	return out
}

// hasDuplicates reports whether two values are equal (the values are
// strings here).
func hasDuplicates(values []any) bool {
	seen := map[any]bool{}
	for _, v := range values {
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}

// checkIntegrity is CONTRACTS §11.6 step 9: the stored text must already be
// sanitized, and the content hash must match.
func (o options) checkIntegrity(c *checker, tree any) {
	obj := tree.(canon.Object)
	raw := make(canon.Object, 0, len(obj))
	for _, m := range obj {
		if m.Key != "contentHash" && m.Key != "createdAt" && m.Key != "reason" {
			raw = append(raw, m)
		}
	}
	rawJSON, err := o.marshalTree(raw)
	if err != nil {
		c.add("$", "Checkpoint cannot be snapshotted safely: "+err.Error())
		return
	}
	var payload Payload
	dec := json.NewDecoder(bytes.NewReader(rawJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&payload); err != nil {
		c.add("$", "Checkpoint cannot be snapshotted safely: "+err.Error())
		return
	}
	sanitized := o.sanitize(payload)
	sanitizedJSON, err := o.marshal(&sanitized)
	if err != nil {
		c.add("$", "Checkpoint cannot be snapshotted safely: "+err.Error())
		return
	}
	if !bytes.Equal(rawJSON, sanitizedJSON) {
		c.add("$", "Checkpoint contains text that was not sanitized before persistence.")
		return
	}
	if o.skipHashCheck || faults.On(faults.CheckpointSkipContentHash) {
		return
	}
	createdAt, _ := obj.Get("createdAt")
	reason, _ := obj.Get("reason")
	want, err := o.sealedHash(createdAt.(string), &sanitized, sanitizedJSON, Reason(reason.(string)))
	contentHash, _ := obj.Get("contentHash")
	if err != nil || want != contentHash {
		c.issues = append(c.issues, Issue{Code: CodeHashMismatch, Message: "Checkpoint content hash does not match its payload.", Path: "contentHash"})
	}
}
