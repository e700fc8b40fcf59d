package doubles

import (
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
)

// askUser is user.ask: every question gets a fixed answer; no user is
// asked.
func askUser(args map[string]any) outcome {
	questions, ok := args["questions"].([]any)
	if !ok {
		return invalid("questions must be an array.")
	}
	answers := make([]canon.Object, 0, len(questions))
	for _, q := range questions {
		item, _ := q.(map[string]any)
		id, text := jsString(item["id"]), jsString(item["question"])
		answers = append(answers, obj("id", id, "answer", "Deterministic contract answer for '"+id+"': "+text))
	}
	return outcome{
		output:  obj("answers", answers, "cancelled", false),
		summary: fmt.Sprintf("Answered %d deterministic contract question(s).", len(answers)),
		trust:   "trusted",
	}
}

// jsString is JavaScript's String(v ?? "") for decoded JSON values.
func jsString(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case float64:
		return jsNumber(t)
	case bool:
		return fmt.Sprint(t)
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = jsString(x)
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}
