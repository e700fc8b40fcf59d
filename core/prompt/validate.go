package prompt

import (
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
)

var (
	legacyRequestFields = []string{"promptHash", "promptVersion", "systemPrompt", "workspaceInstructions"}
	knownRequestFields  = []string{"acceptanceCriteria", "attachments", "budget", "checkpoint", "checkpointTrust",
		"compactOnStart", "completion", "constraints", "goal", "mode", "planMode", "prompt", "runId", "taskId",
		"tokenProfile", "workspaceRoot", "contextData"}
	knownPromptFields = []string{"approvalProfile", "complexity", "dirtyStateSummary", "hostEnvironment",
		"networkAccess", "trustedWorkspaceInstructions", "writeAccess", "agentProfile"}
	hostEnvironmentFields    = []string{"architecture", "command", "operatingSystem"}
	commandEnvironmentFields = []string{"argumentsPrefix", "commandMode", "executable", "interactive",
		"pathStyle", "shell", "stdin", "tty"}
	instructionFields   = []string{"content", "contentHash", "source"}
	contextItemFields   = []string{"content", "source"}
	criterionFields     = []string{"id", "required", "text"}
	attachmentFields    = []string{"artifactId", "contentSha256", "mimeType", "name", "provenance", "retention", "trust"}
	provenanceFields    = []string{"source"}
	completionFields    = []string{"requireFinalReportPersistence", "requireInspection", "requireTokenLedger", "requireTrace", "requireValidation", "research"}
	researchFields      = []string{"minFetchCalls", "minSearchCalls", "requireCitations", "requiredDomains"}
	maxContextItems     = 32
	maxContextSourceLen = 1024
	maxContextContent   = 32000
)

// validateTree applies RUNTIME §4.2–§4.3 in the original order to a parsed
// request object; runID is the resolved run ID. The first failing rule
// wins.
func validateTree(req canon.Object, runID string) error {
	for _, f := range legacyRequestFields {
		if _, ok := req.Get(f); ok {
			return typeError("%s is no longer accepted; provide the structured prompt configuration.", f)
		}
	}
	if k, ok := firstUnknown(req, knownRequestFields); ok {
		return typeError("Run request contains unknown field %s.", k)
	}
	for _, f := range []struct {
		name  string
		value any
	}{{"goal", get(req, "goal")}, {"runId", runID}, {"taskId", get(req, "taskId")}, {"workspaceRoot", get(req, "workspaceRoot")}} {
		if !nonEmptyText(f.value) {
			return typeError("%s must be a non-empty string.", f.name)
		}
	}
	if v, ok := req.Get("mode"); ok && !oneOf(v, modes) {
		return typeError("mode is invalid.")
	}
	if v, ok := req.Get("constraints"); ok && !nonEmptyTextList(v) {
		return typeError("constraints must contain non-empty strings.")
	}
	prompt, ok := asObject(get(req, "prompt"))
	if !ok {
		return typeError("prompt must be a structured configuration object.")
	}
	if v, ok := prompt.Get("agentProfile"); ok && !oneOf(v, agentProfiles) {
		return typeError("Invalid agent profile.")
	}
	if v, ok := req.Get("contextData"); ok && !validContextData(v) {
		return typeError("Invalid or oversized context data.")
	}
	if err := validatePrompt(prompt); err != nil {
		return err
	}
	if v, ok := req.Get("tokenProfile"); ok && !oneOf(v, tokenProfiles) {
		return typeError("tokenProfile is invalid.")
	}
	if err := validateCriteria(req); err != nil {
		return err
	}
	if v, ok := req.Get("completion"); ok {
		if err := validateCompletion(v); err != nil {
			return err
		}
	}
	if v, ok := req.Get("attachments"); ok && !validAttachments(v) {
		return typeError("attachments is malformed.")
	}
	// Plan mode and manual compaction are deferred by name (DECISIONS 15,
	// 18): only the value true counts, and it is refused, not ignored.
	if get(req, "planMode") == true {
		return typeError("planMode is not supported by this port.")
	}
	if get(req, "compactOnStart") == true {
		return typeError("compactOnStart is not supported by this port.")
	}
	return nil
}

// validatePrompt applies RUNTIME §4.3 items 9–15 (CONTRACTS §9.1–§9.2).
func validatePrompt(prompt canon.Object) error {
	if k, ok := firstUnknown(prompt, knownPromptFields); ok {
		return typeError("prompt contains unknown field %s.", k)
	}
	if !oneOf(get(prompt, "approvalProfile"), approvalProfiles) {
		return typeError("prompt.approvalProfile is invalid.")
	}
	if !oneOf(get(prompt, "complexity"), complexities) {
		return typeError("prompt.complexity is invalid.")
	}
	for _, f := range []string{"networkAccess", "writeAccess"} {
		if !oneOf(get(prompt, f), accessValues) {
			return typeError("prompt.%s is invalid.", f)
		}
	}
	if v, ok := prompt.Get("dirtyStateSummary"); ok {
		if _, isString := v.(string); !isString {
			return typeError("prompt.dirtyStateSummary must be a string when supplied.")
		}
	}
	if v, ok := prompt.Get("hostEnvironment"); ok {
		if err := validateHostEnvironment(v); err != nil {
			return err
		}
	}
	// The original treats null like an absent list here and then fails
	// while copying it; conform rejects it with the rule's own message.
	if v, ok := prompt.Get("trustedWorkspaceInstructions"); ok && !validInstructions(v) {
		return typeError("prompt.trustedWorkspaceInstructions is malformed.")
	}
	return nil
}

func validateHostEnvironment(v any) error {
	host, ok := asObject(v)
	if !ok {
		return typeError("prompt.hostEnvironment must be an object when supplied.")
	}
	if !sameKeySet(host, hostEnvironmentFields...) {
		return typeError("prompt.hostEnvironment contains unknown or missing fields.")
	}
	if !nonEmptyText(get(host, "architecture")) || !oneOf(get(host, "operatingSystem"), operatingSystems) {
		return typeError("prompt.hostEnvironment is malformed.")
	}
	cmd, ok := asObject(get(host, "command"))
	if !ok {
		return typeError("prompt.hostEnvironment.command must be an object.")
	}
	if !sameKeySet(cmd, commandEnvironmentFields...) {
		return typeError("prompt.hostEnvironment.command contains unknown or missing fields.")
	}
	prefix, isList := get(cmd, "argumentsPrefix").([]any)
	valid := isList
	for _, a := range prefix {
		if !nonEmptyText(a) || strings.ContainsRune(a.(string), 0) {
			valid = false
		}
	}
	exe, _ := get(cmd, "executable").(string)
	valid = valid && nonEmptyText(exe) && !strings.ContainsRune(exe, 0) &&
		get(cmd, "commandMode") == CommandModeShellString &&
		get(cmd, "interactive") == false &&
		oneOf(get(cmd, "pathStyle"), pathStyles) &&
		oneOf(get(cmd, "shell"), shells) &&
		get(cmd, "stdin") == StdinClosed &&
		get(cmd, "tty") == false
	if !valid {
		return typeError("prompt.hostEnvironment.command is malformed.")
	}
	return nil
}

func validInstructions(v any) bool {
	return everyObject(v, instructionFields, func(o canon.Object) bool {
		h, hashed := o.Get("contentHash")
		return nonEmptyText(get(o, "content")) && nonEmptyText(get(o, "source")) && (!hashed || nonEmptyText(h))
	})
}

// everyObject reports whether v is an array of objects, each without a
// member outside known, that all keep ok.
func everyObject(v any, known []string, ok func(canon.Object) bool) bool {
	list, isList := v.([]any)
	if !isList {
		return false
	}
	for _, item := range list {
		if o, isObject := closedObject(item, known); !isObject || !ok(o) {
			return false
		}
	}
	return true
}

// closedObject returns v as an object when it is one without a member
// outside known.
func closedObject(v any, known []string) (canon.Object, bool) {
	o, ok := asObject(v)
	if !ok {
		return nil, false
	}
	if _, extra := firstUnknown(o, known); extra {
		return nil, false
	}
	return o, true
}

// validContextData applies RUNTIME §4.3 item 8. Lengths are UTF-16 code
// units. conform also refuses members other than source and content, which
// the original would pass to the model unchecked.
func validContextData(v any) bool {
	if list, ok := v.([]any); ok && len(list) > maxContextItems {
		return false
	}
	return everyObject(v, contextItemFields, func(o canon.Object) bool {
		src, okSrc := get(o, "source").(string)
		content, okContent := get(o, "content").(string)
		return okSrc && okContent && canon.UTF16Len(src) <= maxContextSourceLen && canon.UTF16Len(content) <= maxContextContent
	})
}

// validateCriteria applies RUNTIME §4.3 item 17. Unknown members of a
// criterion are refused (the original ignores them).
func validateCriteria(req canon.Object) error {
	v, ok := req.Get("acceptanceCriteria")
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	duplicate := false
	wellFormed := everyObject(v, criterionFields, func(o canon.Object) bool {
		r, hasRequired := o.Get("required")
		if _, isBool := r.(bool); !nonEmptyText(get(o, "id")) || !nonEmptyText(get(o, "text")) || hasRequired && !isBool {
			return false
		}
		id := get(o, "id").(string)
		duplicate = duplicate || seen[id]
		seen[id] = true
		return true
	})
	if !wellFormed {
		return typeError("acceptanceCriteria is malformed.")
	}
	if duplicate {
		return typeError("acceptanceCriteria ids must be unique.")
	}
	return nil
}

// validateCompletion applies RUNTIME §4.3 items 18–19. null counts as no
// requirements (as in the original); any other non-object is refused with
// the first message (the original accepts numbers and empty strings).
func validateCompletion(v any) error {
	if v == nil {
		return nil
	}
	c, ok := asObject(v)
	if !ok {
		return typeError("completion requirements must be boolean values.")
	}
	for _, m := range c {
		if _, isBool := m.Value.(bool); !isBool && m.Key != "research" {
			return typeError("completion requirements must be boolean values.")
		}
	}
	if _, ok := firstUnknown(c, completionFields); ok {
		return typeError("completion contains an unknown requirement.")
	}
	rv, ok := c.Get("research")
	if !ok {
		return nil
	}
	research, ok := asObject(rv)
	if !ok {
		return typeError("completion.research must be an object.")
	}
	if _, ok := firstUnknown(research, researchFields); ok {
		return typeError("completion.research contains an unknown requirement.")
	}
	for _, name := range []string{"minFetchCalls", "minSearchCalls"} {
		if n, ok := research.Get(name); ok {
			if _, valid := safeNonNegativeInteger(n); !valid {
				return typeError("completion.research.%s must be a non-negative safe integer.", name)
			}
		}
	}
	if b, ok := research.Get("requireCitations"); ok {
		if _, isBool := b.(bool); !isBool {
			return typeError("completion.research.requireCitations must be boolean.")
		}
	}
	if d, ok := research.Get("requiredDomains"); ok && !normalizedDomains(d) {
		return typeError("completion.research.requiredDomains must contain normalized host names.")
	}
	return nil
}

func normalizedDomains(v any) bool {
	if !nonEmptyTextList(v) {
		return false
	}
	for _, item := range v.([]any) {
		d := item.(string)
		if d != strings.ToLower(d) || strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") || strings.Contains(d, "/") {
			return false
		}
	}
	return true
}

// validAttachments applies RUNTIME §4.3 item 20; unknown members of an
// attachment or its provenance are refused (the original ignores them).
func validAttachments(v any) bool {
	return everyObject(v, attachmentFields, func(o canon.Object) bool {
		for _, f := range []string{"artifactId", "contentSha256", "mimeType", "name"} {
			if !nonEmptyText(get(o, f)) {
				return false
			}
		}
		if get(o, "trust") != TrustUntrustedData || !oneOf(get(o, "retention"), retentions) {
			return false
		}
		prov, ok := closedObject(get(o, "provenance"), provenanceFields)
		return ok && nonEmptyText(get(prov, "source"))
	})
}

func nonEmptyTextList(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, item := range list {
		if !nonEmptyText(item) {
			return false
		}
	}
	return true
}

// get returns the member key of o, or nil when it is absent.
func get(o canon.Object, key string) any {
	v, _ := o.Get(key)
	return v
}
