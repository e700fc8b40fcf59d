package run

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/canon"
)

func jsonNumber(v float64) (string, error) {
	b, err := canon.Marshal(v)
	return string(b), err
}

// stableJSON is the canonical JSON of v as text; v must be marshalable.
func stableJSON(v any) string {
	b, err := canon.Marshal(v)
	if err != nil {
		raw, _ := json.Marshal(v)
		return string(raw)
	}
	return string(b)
}

// runtimeHash is sha256 over the canonical JSON of v.
func runtimeHash(v any) (string, error) { return canon.Hash(v) }

// idempotencyKey is runtimeHash({runId, toolCallId, name, argumentsHash})
// (RUNTIME §15 step 6), written without the generic encoder: the object has
// four string members whose canonical order is fixed, so its RFC 8785 text
// is the escaped strings in that order. It runs once per tool call.
func idempotencyKey(runID, toolCallID, name, argumentsHash string) string {
	var b strings.Builder
	b.Grow(64 + len(runID) + len(toolCallID) + len(name) + len(argumentsHash))
	for i, m := range [4][2]string{{"argumentsHash", argumentsHash}, {"name", name}, {"runId", runID}, {"toolCallId", toolCallID}} {
		if i == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		writeJSONString(&b, m[0])
		b.WriteByte(':')
		writeJSONString(&b, m[1])
	}
	b.WriteByte('}')
	return canon.HashText(b.String())
}

// writeJSONString writes s as an RFC 8785 JSON string: only the quote, the
// backslash and control characters are escaped, the short forms first.
func writeJSONString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&0xf])
		case r == utf8.RuneError:
			b.WriteString("\uFFFD")
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
