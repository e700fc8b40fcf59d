package run

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/galaxy-stack/conform/core/canon"
)

var (
	legacyRequestFields = []string{"promptHash", "promptVersion", "systemPrompt", "workspaceInstructions"}
	knownRequestFields  = []string{"acceptanceCriteria", "attachments", "budget", "checkpoint", "checkpointTrust",
		"compactOnStart", "completion", "constraints", "goal", "mode", "planMode", "prompt", "runId", "taskId",
		"tokenProfile", "workspaceRoot", "contextData"}
	knownPromptFields = []string{"approvalProfile", "complexity", "dirtyStateSummary", "hostEnvironment",
		"networkAccess", "trustedWorkspaceInstructions", "writeAccess", "agentProfile"}
	modes = []string{ModeAuto, ModeRefactor, ModeReviewOnly, ModeScaffold, ModeValidateOnly}
)

func nonEmpty(v any) bool {
	s, ok := v.(string)
	return ok && !canon.IsBlank(s)
}

func isObject(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}

func keySetEquals(obj map[string]any, keys ...string) bool {
	if len(obj) != len(keys) {
		return false
	}
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			return false
		}
	}
	return true
}

func sortedObjectKeys(obj map[string]any) []string {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func jsLen(s string) int { return len(utf16.Encode([]rune(s))) }

// validateRequest applies RUNTIME §4.2–§4.3 in order to a decoded request
// object. Unknown keys are reported in sorted order for determinism (the
// original reports the first in the caller's key order).
func validateRequest(obj map[string]any, runID string) error {
	for _, f := range legacyRequestFields {
		if _, ok := obj[f]; ok {
			return typeError("%s is no longer accepted; provide the structured prompt configuration.", f)
		}
	}
	for _, k := range sortedObjectKeys(obj) {
		if !slices.Contains(knownRequestFields, k) {
			return typeError("Run request contains unknown field %s.", k)
		}
	}
	for _, f := range []struct {
		name string
		v    any
	}{{"goal", obj["goal"]}, {"runId", runID}, {"taskId", obj["taskId"]}, {"workspaceRoot", obj["workspaceRoot"]}} {
		if !nonEmpty(f.v) {
			return typeError("%s must be a non-empty string.", f.name)
		}
	}
	if m, ok := obj["mode"]; ok {
		if s, _ := m.(string); !slices.Contains(modes, s) {
			return typeError("mode is invalid.")
		}
	}
	if c, ok := obj["constraints"]; ok && !allNonEmptyStrings(c) {
		return typeError("constraints must contain non-empty strings.")
	}
	prompt, ok := obj["prompt"].(map[string]any)
	if !ok {
		return typeError("prompt must be a structured configuration object.")
	}
	if p, ok := prompt["agentProfile"]; ok {
		if s, _ := p.(string); s != "coding" && s != "assistant" && s != "research" {
			return typeError("Invalid agent profile.")
		}
	}
	if err := validateContextData(obj); err != nil {
		return err
	}
	if err := validatePrompt(prompt); err != nil {
		return err
	}
	if tp, ok := obj["tokenProfile"]; ok {
		if s, _ := tp.(string); s != "balanced" && s != "conservative" && s != "extended" {
			return typeError("tokenProfile is invalid.")
		}
	}
	if err := validateCriteria(obj); err != nil {
		return err
	}
	if err := validateCompletion(obj); err != nil {
		return err
	}
	if a, ok := obj["attachments"]; ok && !validAttachments(a) {
		return typeError("attachments is malformed.")
	}
	// Plan mode and manual compaction are deferred by name (DECISIONS 15).
	if obj["planMode"] == true {
		return typeError("planMode is not supported by this port.")
	}
	if obj["compactOnStart"] == true {
		return typeError("compactOnStart is not supported by this port.")
	}
	return nil
}

func allNonEmptyStrings(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, x := range list {
		if !nonEmpty(x) {
			return false
		}
	}
	return true
}

func validateContextData(obj map[string]any) error {
	cd, ok := obj["contextData"]
	if !ok {
		return nil
	}
	list, ok := cd.([]any)
	bad := !ok || len(list) > 32
	for _, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			bad = true
			break
		}
		src, ok1 := m["source"].(string)
		content, ok2 := m["content"].(string)
		if !ok1 || !ok2 || jsLen(src) > 1024 || jsLen(content) > 32000 {
			bad = true
			break
		}
	}
	if bad {
		return typeError("Invalid or oversized context data.")
	}
	return nil
}

func validatePrompt(p map[string]any) error {
	for _, k := range sortedObjectKeys(p) {
		if !slices.Contains(knownPromptFields, k) {
			return typeError("prompt contains unknown field %s.", k)
		}
	}
	oneOf := func(key string, allowed ...string) error {
		if s, _ := p[key].(string); !slices.Contains(allowed, s) {
			return typeError("prompt.%s is invalid.", key)
		}
		return nil
	}
	if err := oneOf("approvalProfile", "strict", "balanced", "trusted-workspace"); err != nil {
		return err
	}
	if err := oneOf("complexity", "simple", "standard", "complex"); err != nil {
		return err
	}
	if err := oneOf("networkAccess", "allowed", "denied", "policy_gated"); err != nil {
		return err
	}
	if err := oneOf("writeAccess", "allowed", "denied", "policy_gated"); err != nil {
		return err
	}
	if d, ok := p["dirtyStateSummary"]; ok {
		if _, isStr := d.(string); !isStr {
			return typeError("prompt.dirtyStateSummary must be a string when supplied.")
		}
	}
	if he, ok := p["hostEnvironment"]; ok {
		if err := validateHostEnvironment(he); err != nil {
			return err
		}
	}
	if ti, ok := p["trustedWorkspaceInstructions"]; ok {
		list, ok := ti.([]any)
		bad := !ok
		for _, it := range list {
			m, ok := it.(map[string]any)
			if !ok {
				bad = true
				break
			}
			for k := range m {
				if k != "content" && k != "contentHash" && k != "source" {
					bad = true
				}
			}
			if !nonEmpty(m["content"]) || !nonEmpty(m["source"]) {
				bad = true
			}
			if h, ok := m["contentHash"]; ok && !nonEmpty(h) {
				bad = true
			}
		}
		if bad {
			return typeError("prompt.trustedWorkspaceInstructions is malformed.")
		}
	}
	return nil
}

func validateHostEnvironment(v any) error {
	he, ok := v.(map[string]any)
	if !ok {
		return typeError("prompt.hostEnvironment must be an object when supplied.")
	}
	if !keySetEquals(he, "architecture", "command", "operatingSystem") {
		return typeError("prompt.hostEnvironment contains unknown or missing fields.")
	}
	if os, _ := he["operatingSystem"].(string); !nonEmpty(he["architecture"]) || !slices.Contains([]string{"darwin", "linux", "win32", "unknown"}, os) {
		return typeError("prompt.hostEnvironment is malformed.")
	}
	cmd, ok := he["command"].(map[string]any)
	if !ok {
		return typeError("prompt.hostEnvironment.command must be an object.")
	}
	if !keySetEquals(cmd, "argumentsPrefix", "commandMode", "executable", "interactive", "pathStyle", "shell", "stdin", "tty") {
		return typeError("prompt.hostEnvironment.command contains unknown or missing fields.")
	}
	good := true
	prefix, ok := cmd["argumentsPrefix"].([]any)
	good = good && ok
	for _, a := range prefix {
		s, ok := a.(string)
		good = good && ok && !canon.IsBlank(s) && !strings.ContainsRune(s, 0)
	}
	exe, _ := cmd["executable"].(string)
	good = good && !canon.IsBlank(exe) && !strings.ContainsRune(exe, 0)
	good = good && cmd["commandMode"] == "shell_string" && cmd["interactive"] == false &&
		cmd["stdin"] == "closed" && cmd["tty"] == false
	ps, _ := cmd["pathStyle"].(string)
	sh, _ := cmd["shell"].(string)
	good = good && slices.Contains([]string{"posix", "windows", "unknown"}, ps) &&
		slices.Contains([]string{"bash", "cmd", "fish", "powershell", "sh", "unknown", "zsh"}, sh)
	if !good {
		return typeError("prompt.hostEnvironment.command is malformed.")
	}
	return nil
}

func validateCriteria(obj map[string]any) error {
	ac, ok := obj["acceptanceCriteria"]
	if !ok {
		return nil
	}
	list, ok := ac.([]any)
	if !ok {
		return typeError("acceptanceCriteria is malformed.")
	}
	seen := map[string]bool{}
	for _, it := range list {
		m, ok := it.(map[string]any)
		if !ok || !nonEmpty(m["id"]) || !nonEmpty(m["text"]) {
			return typeError("acceptanceCriteria is malformed.")
		}
		if r, ok := m["required"]; ok {
			if _, isBool := r.(bool); !isBool {
				return typeError("acceptanceCriteria is malformed.")
			}
		}
	}
	for _, it := range list {
		id := it.(map[string]any)["id"].(string)
		if seen[id] {
			return typeError("acceptanceCriteria ids must be unique.")
		}
		seen[id] = true
	}
	return nil
}

func isSafeNonNegativeInt(v any) bool {
	f, ok := v.(float64)
	return ok && f >= 0 && f == math.Trunc(f) && f <= 1<<53-1
}

func validateCompletion(obj map[string]any) error {
	c, ok := obj["completion"]
	if !ok {
		return nil
	}
	m, ok := c.(map[string]any)
	if !ok {
		return typeError("completion requirements must be boolean values.")
	}
	known := []string{"requireFinalReportPersistence", "requireInspection", "requireTokenLedger", "requireTrace", "requireValidation", "research"}
	for _, k := range sortedObjectKeys(m) {
		if k == "research" {
			continue
		}
		if _, isBool := m[k].(bool); !isBool {
			return typeError("completion requirements must be boolean values.")
		}
	}
	for _, k := range sortedObjectKeys(m) {
		if !slices.Contains(known, k) {
			return typeError("completion contains an unknown requirement.")
		}
	}
	r, ok := m["research"]
	if !ok {
		return nil
	}
	rm, ok := r.(map[string]any)
	if !ok {
		return typeError("completion.research must be an object.")
	}
	for _, k := range sortedObjectKeys(rm) {
		if !slices.Contains([]string{"minFetchCalls", "minSearchCalls", "requireCitations", "requiredDomains"}, k) {
			return typeError("completion.research contains an unknown requirement.")
		}
	}
	for _, k := range []string{"minFetchCalls", "minSearchCalls"} {
		if v, ok := rm[k]; ok && !isSafeNonNegativeInt(v) {
			return typeError("completion.research.%s must be a non-negative safe integer.", k)
		}
	}
	if v, ok := rm["requireCitations"]; ok {
		if _, isBool := v.(bool); !isBool {
			return typeError("completion.research.requireCitations must be boolean.")
		}
	}
	if v, ok := rm["requiredDomains"]; ok {
		list, ok := v.([]any)
		good := ok
		for _, d := range list {
			s, ok := d.(string)
			good = good && ok && !canon.IsBlank(s) && s == strings.ToLower(s) &&
				!strings.HasPrefix(s, ".") && !strings.HasSuffix(s, ".") && !strings.Contains(s, "/")
		}
		if !good {
			return typeError("completion.research.requiredDomains must contain normalized host names.")
		}
	}
	return nil
}

func validAttachments(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			return false
		}
		for _, k := range []string{"artifactId", "contentSha256", "mimeType", "name"} {
			if !nonEmpty(m[k]) {
				return false
			}
		}
		if m["trust"] != "untrusted_data" {
			return false
		}
		if r, _ := m["retention"].(string); r != "default" && r != "durable" && r != "temporary" {
			return false
		}
		p, ok := m["provenance"].(map[string]any)
		if !ok || !nonEmpty(p["source"]) {
			return false
		}
	}
	return true
}
