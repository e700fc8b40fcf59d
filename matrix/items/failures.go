package items

import (
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// retryableCode reports whether code is one whose failures may be retryable
// (CONTRACTS.md, tool error codes: "IO_ERROR and UNAVAILABLE are
// retryable: true"); every other ordinary failure is not.
func retryableCode(code string) bool { return code == "IO_ERROR" || code == "UNAVAILABLE" }

// ordinaryFailures sends item 8's direct host calls that fail as ordinary
// results, each for a reason of its own: a missing file, an edit that
// matches nothing, a stale precondition, arguments the schema refuses and
// an unknown tool.
func ordinaryFailures(d *kit.Direct) []kit.DirectCall {
	return []kit.DirectCall{
		d.Exec("read_file", map[string]any{"path": "missing.md"}, ""),
		d.Exec("edit_file", map[string]any{"path": "notes.md", "oldText": "no such text", "newText": "x"}, ""),
		d.Exec("write_file", map[string]any{"path": "notes.md", "content": "clobbered\n", "precondition": map[string]any{"kind": "must_not_exist"}}, ""),
		d.Exec("write_file", map[string]any{"path": "other.md"}, ""),
		d.Exec("delete_everything", map[string]any{}, ""),
	}
}

// failureSemantics declares item 8's checks of failed results, put to a
// host process of its own: what a failure's retryable flag claims, which
// call its content names, and a call whose own mode excludes its tool.
func failureSemantics(c *kit.TestContext) {
	files := map[string]string{"notes.md": "keep these notes\n"}
	// CONTRACTS.md, tool error codes: only IO_ERROR and UNAVAILABLE are
	// retryable. A host whose catch-all marks every failure retryable tells
	// the model to repeat calls that cannot succeed, the same conversion
	// into "ordinary retryable tool results" S000 forbids for throws.
	c.It("ordinary failures are retryable only for IO_ERROR and UNAVAILABLE, in the envelope and the content alike", "T14 L8", func() {
		kit.FailRepro(c)
		d := kit.StartDirect(c, files, nil)
		for _, call := range ordinaryFailures(d) {
			r, content := call.Failed()
			if !retryableCode(r.Error.Code) {
				Expect(r.Error.Retryable).To(BeFalse(), "%s failed with %s marked retryable; only IO_ERROR and UNAVAILABLE failures are retryable", call.CallID, r.Error.Code)
			}
			Expect(content).To(HaveKeyWithValue("error", HaveKeyWithValue("retryable", r.Error.Retryable)),
				"the content of %s's failure must carry the envelope's retryable (%v): %.200q", call.CallID, r.Error.Retryable, r.Content)
			Expect(content).To(HaveKeyWithValue("error", HaveKeyWithValue("code", r.Error.Code)),
				"the content of %s's failure must carry the envelope's code %s: %.200q", call.CallID, r.Error.Code, r.Content)
		}
	})
	// CONTRACTS.md, result envelope: the content of a failure is
	// {"ok":false,"error":…,"toolCallId":"<callId>"}; S000 S3 correlates
	// tool-call IDs.
	c.It("a failed result's content names the call it answers", "S3 L8", func() {
		kit.FailRepro(c)
		d := kit.StartDirect(c, files, nil)
		for _, call := range ordinaryFailures(d) {
			r, content := call.Failed()
			Expect(content).To(HaveKeyWithValue("toolCallId", call.CallID), "the content of %s's failure must name its call: %.200q", call.CallID, r.Content)
			Expect(content).To(HaveKeyWithValue("ok", false), "the content of %s's failure must say ok false: %.200q", call.CallID, r.Content)
		}
	})
	// CONTRACTS.md, mode policy: a call to an active tool whose own
	// context.mode excludes it is DENY_RUN_MODE, before any side effect;
	// the same for every tool family.
	c.It("a call whose own mode excludes its tool is refused before any side effect", "T4 L8", func() {
		kit.FailRepro(c)
		d := kit.StartDirect(c, files, nil)
		calls := []kit.DirectCall{
			d.Exec("write_file", map[string]any{"path": "created.md", "content": "made\n", "precondition": map[string]any{"kind": "must_not_exist"}}, "review_only"),
			d.Exec("edit_file", map[string]any{"path": "notes.md", "oldText": "keep", "newText": "lost"}, "review_only"),
		}
		for _, call := range calls {
			r, _ := call.Failed()
			Expect(r.Error.Code).To(Equal("DENY_RUN_MODE"), "%s in review_only mode was refused with %s", call.CallID, r.Error.Code)
			Expect(r.Effects).NotTo(BeNil(), "the DENY_RUN_MODE refusal of %s attests no approval: denied", call.CallID)
			Expect(r.Effects.Approval).To(Equal("denied"), "the DENY_RUN_MODE refusal of %s attests approval %q", call.CallID, r.Effects.Approval)
		}
		Expect(d.Exists("created.md")).To(BeFalse(), "write_file ran before the mode policy refused it: created.md exists")
		Expect(d.Read("notes.md")).To(Equal("keep these notes\n"), "edit_file ran before the mode policy refused it: notes.md changed")
	})
	// CONTRACTS.md, tool error codes: UNKNOWN_TOOL when modelName is not
	// an active tool, canonicalToolId the name as called. Routing is exact:
	// another letter case or a canonical ID is not a model name.
	c.It("model names are routed exactly: another letter case or a canonical ID is an unknown tool", "T2 L8", func() {
		kit.FailRepro(c)
		d := kit.StartDirect(c, files, nil)
		for _, name := range []string{"Read_File", "READ_FILE", "workspace.read"} {
			call := d.Exec(name, map[string]any{"path": "notes.md"}, "")
			r, _ := call.Failed()
			Expect(r.Error.Code).To(Equal("UNKNOWN_TOOL"), "%s is not a model name of the active tool set; it was refused with %s", name, r.Error.Code)
			Expect(r.CanonicalToolID).To(Equal(name), "an UNKNOWN_TOOL result names the tool as called (%s), not %s", name, r.CanonicalToolID)
		}
	})
	// S000 T15/T16: a failed structured result may carry only
	// approval=denied and its correlated request ID; an inspection (or any
	// other) effect on ok=false is a contract failure.
	c.It("an ordinary failure attests no effect", "T15 T16 L8", func() {
		kit.FailRepro(c)
		d := kit.StartDirect(c, files, nil)
		for _, call := range ordinaryFailures(d) {
			r, _ := call.Failed()
			if r.Effects == nil {
				continue
			}
			e := *r.Effects
			Expect(e.Approval).NotTo(Equal("denied"), "%s failed with %s, not a denial, yet attests approval denied", call.CallID, r.Error.Code)
			e.Approval, e.ApprovalRequestID = "", ""
			Expect(e).To(BeZero(), "the failure of %s (%s) attests %+v; a failed result may carry only a denial", call.CallID, r.Error.Code, e)
		}
	})
}
