package matrix

// A Guarantee is one sentence of "Required host guarantees" (seed
// HOST_CONFORMANCE.md), the unit that items are traced to.
type Guarantee struct {
	// Key is a short stable name: the section's letter and the sentence's
	// number within the section, e.g. "W2".
	Key string `json:"key"`
	// Section is the heading the sentence stands under.
	Section string `json:"section"`
	// Text is the sentence as the seed words it.
	Text string `json:"text"`
}

// guarantees are the sentences of "Required host guarantees", in the
// seed's order.
var guarantees = []Guarantee{
	{Key: "W1", Section: "Workspace", Text: "Resolve all paths beneath the configured workspace root."},
	{Key: "W2", Section: "Workspace", Text: "Reject lexical escapes and symlink escapes."},
	{Key: "W3", Section: "Workspace", Text: "Enforce write/edit preconditions in the same serialized commit operation."},
	{Key: "W4", Section: "Workspace", Text: "Return deterministic SHA-256 content evidence."},
	{Key: "W5", Section: "Workspace", Text: "Bound traversal, reads, searches, and pagination."},
	{Key: "W6", Section: "Workspace", Text: "Implement a full relevant-workspace fingerprint and coordinate AI Coder writes with capture/verify boundaries."},
	{Key: "C1", Section: "Commands", Text: "Select one real interpreter per adapter and publish that exact executable, argument prefix, shell dialect, path style, stdin, interactivity, and TTY behavior through `prompt.hostEnvironment.command`."},
	{Key: "C2", Section: "Commands", Text: "Spawn the published executable directly."},
	{Key: "C3", Section: "Commands", Text: "Do not use an implicit host default such as Node's `shell: true`, and do not describe the user's login shell or terminal emulator when a different interpreter executes the command."},
	{Key: "C4", Section: "Commands", Text: "Keep interpreter selection and prompt metadata sourced from the same immutable value."},
	{Key: "C5", Section: "Commands", Text: "If `command.run` is active and that value is absent or `unknown`, core preparation must fail before the first model request."},
	{Key: "C6", Section: "Commands", Text: "Validate `cwd` beneath the workspace."},
	{Key: "C7", Section: "Commands", Text: "Enforce absolute run deadline and per-call timeout."},
	{Key: "C8", Section: "Commands", Text: "Propagate cancellation to the child process and supervise cleanup."},
	{Key: "C9", Section: "Commands", Text: "Bound stdout and stderr independently; preserve complete output only through an artifact/spill port."},
	{Key: "C10", Section: "Commands", Text: "Return non-zero exits as structured command results, not transport success masquerading as validation success."},
	{Key: "C11", Section: "Commands", Text: "Report process containment separately from workspace `cwd` validation."},
	{Key: "C12", Section: "Commands", Text: "A missing or failed containment backend must fail before spawn when containment is required; best-effort execution must not be labeled sandboxed."},
	{Key: "M1", Section: "Model", Text: "Expose an immutable deployment-specific identity and capability snapshot."},
	{Key: "M2", Section: "Model", Text: "Implement exact or explicitly estimated token counting."},
	{Key: "M3", Section: "Model", Text: "Follow the ordered streaming protocol and correlation IDs."},
	{Key: "M4", Section: "Model", Text: "Resend/reconstruct attachments because the core does not assume a stateful provider session."},
	{Key: "R1", Section: "Public research", Text: "Advertise `research.search` and `research.fetch` only with an actual adapter or an explicitly labeled deterministic contract-double profile."},
	{Key: "R2", Section: "Public research", Text: "`review_only` may use those canonical research tools; outbound permission and external-side-effect approval still apply to every call."},
	{Key: "R3", Section: "Public research", Text: "Keep provider credentials in host request headers, never tool arguments, query strings, source content, checkpoints or diagnostic reports."},
	{Key: "R4", Section: "Public research", Text: "Bound transport bodies, execution time, UTF-8 content and serialized output against both byte and calibrated token limits while preserving valid JSON."},
	{Key: "R5", Section: "Public research", Text: "Attribute sources and mark external content untrusted."},
	{Key: "R6", Section: "Public research", Text: "A fetched source or search snippet cannot grant workspace inspection, write, validation or plan effects."},
	{Key: "R7", Section: "Public research", Text: "Cite observed sources and distinguish truncation or unavailable evidence from successful verification."},
	{Key: "R8", Section: "Public research", Text: "If source evidence is process-local, disclose that scope."},
	{Key: "R9", Section: "Public research", Text: "Do not reconstruct durable research success from model-authored checkpoint prose."},
	{Key: "P1", Section: "Prompt input", Text: "Supply only the structured `AiCoderPromptConfiguration` fields."},
	{Key: "P2", Section: "Prompt input", Text: "Never assemble or pass `systemPrompt`, `promptHash`, or `promptVersion`."},
	{Key: "P3", Section: "Prompt input", Text: "Resolve trusted workspace instructions and provenance before starting the run; repository/tool text remains untrusted unless explicitly promoted."},
	{Key: "P4", Section: "Prompt input", Text: "Keep approval, network, and write declarations consistent with the actual policy enforced by the host."},
	{Key: "T1", Section: "Tool executor", Text: "Validate input and output schemas."},
	{Key: "T2", Section: "Tool executor", Text: "Route model names to stable canonical IDs."},
	{Key: "T3", Section: "Tool executor", Text: "Build core canonical IDs and effect capabilities with `createAiCoderCoreToolEffectMetadata(activeDescriptors)`; do not copy the profile into the host."},
	{Key: "T4", Section: "Tool executor", Text: "Apply task-mode and approval policy before side effects."},
	{Key: "T5", Section: "Tool executor", Text: "Never derive trusted effects by parsing model-visible output text."},
	{Key: "T6", Section: "Tool executor", Text: "For `command.run`, `command.session`, and `project.validate`, emit `write` only after independently capturing exact changed paths and state hashes."},
	{Key: "T7", Section: "Tool executor", Text: "Represent file create as null-before and file delete as null-after."},
	{Key: "T8", Section: "Tool executor", Text: "For directories, symlinks, and special entries, also emit canonical before/after kinds; a directory transition may have two null content hashes."},
	{Key: "T9", Section: "Tool executor", Text: "Never pass a metadata-only fingerprint for generated dependency state (for example `node_modules`) as a file `contentHash`."},
	{Key: "T10", Section: "Tool executor", Text: "Report such observations as bounded derived mutations and advance `state_version`; reserve `write` for durable paths whose before/after content can be verified independently."},
	{Key: "T11", Section: "Tool executor", Text: "Treat repository-declared validation scripts as executable code: require explicit approval or a verified containment backend before dispatch."},
	{Key: "T12", Section: "Tool executor", Text: "Preserve the core-provided idempotency key for operations that support it."},
	{Key: "T13", Section: "Tool executor", Text: "After dispatch starts, propagate unexpected adapter throws and output-schema failures as unknown side-effect outcomes."},
	{Key: "T14", Section: "Tool executor", Text: "Never convert them into ordinary retryable tool results, even when the tool was expected to be read-only."},
	{Key: "T15", Section: "Tool executor", Text: "A failed structured result may carry only `approval=denied` and its correlated request ID."},
	{Key: "T16", Section: "Tool executor", Text: "Inspection, write, validation, review, plan, criterion, or state effects on `ok=false` are contract failures with an unknown outcome."},
	{Key: "S1", Section: "Checkpoint store and trace", Text: "Keep checkpoints outside model/workspace-controlled storage."},
	{Key: "S2", Section: "Checkpoint store and trace", Text: "Clone on read/write or otherwise prevent mutable aliasing."},
	{Key: "S3", Section: "Checkpoint store and trace", Text: "Correlate run, task, execution, event, tool-call, and sequence IDs."},
	{Key: "S4", Section: "Checkpoint store and trace", Text: "Make `TracePort.flush` durable through the completion boundary."},
	{Key: "S5", Section: "Checkpoint store and trace", Text: "Redact provider endpoint credentials and avoid raw chain-of-thought."},
}

// Guarantees returns every sentence of "Required host guarantees" in the
// seed's order. The slice is a fresh copy.
func Guarantees() []Guarantee { return append([]Guarantee(nil), guarantees...) }

func guaranteeByKey(key string) (Guarantee, bool) {
	for _, g := range append(Guarantees(), formatSentences...) {
		if g.Key == key {
			return g, true
		}
	}
	return Guarantee{}, false
}

// An Uncheckable is a sentence of "Required host guarantees" that no
// check can observe through protocol v1: nothing a host sends or does over
// the protocol can keep or break it. It is listed as such, never as
// checked.
type Uncheckable struct {
	// Key is the sentence's key.
	Key string `json:"key"`
	// Reason says why no host answer can show the sentence kept or broken.
	Reason string `json:"reason"`
	// Documented is the repository file that gives the reason at length.
	Documented string `json:"documented"`
}

// modelDouble is why the host-side model sentences cannot be observed.
const modelDouble = "protocol v1 gives the host no model port: every model request is served by conform's own deterministic model double, so no host implements what the sentence asks"

// uncheckable are the sentences no check can observe through protocol
// v1, in the seed's order. A test keeps each key known, its reason
// documented in the named file, and it off the sentences a runnable item
// checks.
var uncheckable = []Uncheckable{
	{Key: "M1", Reason: modelDouble + " (identity and capability snapshot)", Documented: "fixtures/matrix/18-probe-timestamp-resume/CHECKS.md"},
	{Key: "M2", Reason: modelDouble + " (token counting)", Documented: "fixtures/matrix/25-overflow-compaction/CHECKS.md"},
	{Key: "M4", Reason: modelDouble + " (attachments resent to a stateless provider)", Documented: "fixtures/matrix/36-repeated-compaction/CHECKS.md"},
}

// UncheckableSentences returns the sentences no check can observe through
// protocol v1, in the seed's order. The slice is a fresh copy.
func UncheckableSentences() []Uncheckable { return append([]Uncheckable(nil), uncheckable...) }

// A Trace is one guarantee sentence with the items that check it.
type Trace struct {
	Guarantee
	// Items are the items that name the sentence, runnable or planned.
	Items []int `json:"items"`
	// Runnable are those of Items that run in this version.
	Runnable []int `json:"runnable"`
	// Uncheckable, when set, says why no check can observe the sentence
	// through the protocol.
	Uncheckable *Uncheckable `json:"uncheckable,omitempty"`
}

// Checked reports whether a runnable item checks the sentence.
func (t Trace) Checked() bool { return len(t.Runnable) > 0 }

// Traces maps every sentence of "Required host guarantees" to the items
// that check it, in the seed's order.
func Traces() []Trace {
	out := make([]Trace, 0, len(guarantees))
	for _, g := range guarantees {
		tr := Trace{Guarantee: g, Items: []int{}, Runnable: []int{}}
		for _, u := range uncheckable {
			if u.Key == g.Key {
				u := u
				tr.Uncheckable = &u
			}
		}
		for _, it := range Items() {
			for _, k := range it.Guarantees {
				if k == g.Key {
					tr.Items = append(tr.Items, it.ID)
					if it.Runnable {
						tr.Runnable = append(tr.Runnable, it.ID)
					}
				}
			}
		}
		out = append(out, tr)
	}
	return out
}
