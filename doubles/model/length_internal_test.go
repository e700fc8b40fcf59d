package model

import (
	"bytes"
	"encoding/json"
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/port"
)

// textGen draws texts made of the pieces JSON escaping treats apart: plain
// ASCII, quotes, backslashes, short and long control escapes, DEL, HTML
// characters, multi-byte and four-byte characters, the two separators,
// invalid and truncated UTF-8, and arbitrary bytes.
func textGen() *rapid.Generator[string] {
	pieces := []string{"a", "plain text ", `"`, `\`, "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "<", ">", "&",
		"é", "€", "\U0001F600", "\u2028", "\u2029", "\u2027", "\xff", "\xe2\x80", "\xed\xa0\x80", "\xc0\xaf"}
	return rapid.Custom(func(t *rapid.T) string {
		var b bytes.Buffer
		for range rapid.IntRange(0, 12).Draw(t, "pieces") {
			if rapid.IntRange(0, 4).Draw(t, "raw") == 0 {
				b.Write(rapid.SliceOfN(rapid.Byte(), 1, 4).Draw(t, "bytes"))
				continue
			}
			b.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
		}
		return b.String()
	})
}

// TestPropertyMessageSizeIsTheEncodedLength: the counted length of a
// message is that of its compact JSON as the double encodes it, and as
// encoding/json writes it without HTML escaping.
func TestPropertyMessageSizeIsTheEncodedLength(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := func(label string) string {
			if rapid.Bool().Draw(t, label+" empty") {
				return ""
			}
			return textGen().Draw(t, label)
		}
		m := port.Message{Role: text("role"), Content: text("content"), Thinking: text("thinking"),
			ToolCallID: text("toolCallId"), ToolName: text("toolName")}
		if rapid.IntRange(0, 3).Draw(t, "with calls") == 0 {
			m.ToolCalls = []port.ToolCall{{ToolCallID: "c", Name: "probe", Arguments: map[string]any{"path": text("path")}}}
		} else if rapid.Bool().Draw(t, "empty calls") {
			m.ToolCalls = []port.ToolCall{}
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m); err != nil {
			t.Fatal(err)
		}
		want := b.Len() - 1
		if got := messageSize(m); got != want || jsonSize(m) != want {
			t.Fatalf("messageSize %d, jsonSize %d, encoding/json %d for %q", got, jsonSize(m), want, b.String())
		}
	})
}
