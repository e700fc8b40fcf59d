package window

import (
	"bytes"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// jsonTextGen draws texts made of the pieces JSON escaping treats apart:
// plain ASCII, quotes, backslashes, short and long control escapes, DEL,
// HTML characters, multi-byte and four-byte characters, the two
// separators, invalid and truncated UTF-8, and arbitrary bytes; and texts
// that look like JSON or code.
func jsonTextGen() *rapid.Generator[string] {
	pieces := []string{"a", "plain text ", `"`, `\`, "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "<", ">", "&",
		"é", "€", "ạ", "\U0001F600", "\u2028", "\u2029", "\xff", "\xe2\x80", "\xed\xa0\x80", "[", "{", "}", "]", `{"k":1}`, " const "}
	return rapid.Custom(func(t *rapid.T) string {
		var b bytes.Buffer
		for range rapid.IntRange(0, 10).Draw(t, "pieces") {
			if rapid.IntRange(0, 5).Draw(t, "raw") == 0 {
				b.Write(rapid.SliceOfN(rapid.Byte(), 1, 4).Draw(t, "bytes"))
				continue
			}
			b.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
		}
		return b.String()
	})
}

func windowMessageGen() *rapid.Generator[port.Message] {
	return rapid.Custom(func(t *rapid.T) port.Message {
		text := func(label string) string {
			if rapid.Bool().Draw(t, label+" empty") {
				return ""
			}
			return jsonTextGen().Draw(t, label)
		}
		m := port.Message{Role: rapid.SampledFrom([]string{"user", "assistant", "tool", "system", "\u2028"}).Draw(t, "role"),
			Content: text("content"), Thinking: text("thinking"), ToolCallID: text("toolCallId"), ToolName: text("toolName")}
		switch rapid.IntRange(0, 3).Draw(t, "calls") {
		case 0:
			m.ToolCalls = []port.ToolCall{}
		case 1:
			m.ToolCalls = []port.ToolCall{{ToolCallID: "c1", Name: text("name")}} // nil arguments
		case 2:
			m.ToolCalls = []port.ToolCall{{ToolCallID: "c1", Name: "probe", Arguments: map[string]any{"path": text("path"),
				"n": rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1e21, 0.1}).Draw(t, "n")}}, {ToolCallID: "c2", Name: "b"}}
		}
		return m
	})
}

// messagesReference is Estimator.Messages as it was written before it
// priced the texts it knows to be JSON as json: every text classified.
func messagesReference(e *Estimator, msgs []port.Message) int {
	sum := 0
	for _, m := range msgs {
		sum += MessageOverhead + e.Text(m.Content)
		if m.Role == "assistant" {
			sum += e.Text(m.Thinking)
		}
		if m.Role != "assistant" || len(m.ToolCalls) == 0 {
			sum += e.Text("[]")
			continue
		}
		sum += e.Serializable(normalizeCalls(m.ToolCalls))
	}
	return sum
}

// TestPropertyMessagesJSONAndPrice: over random message lists with every
// kind of escape and tool calls, the text an item's content hash is taken
// over is jsonText's, and the price and the kinds it marks observed are
// those of classifying every text.
func TestPropertyMessagesJSONAndPrice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		msgs := rapid.SliceOfN(windowMessageGen(), 0, 4).Draw(t, "messages")
		if got, want := messagesJSON(msgs), jsonText(msgs); got != want {
			t.Fatalf("messagesJSON\n%q\nwant\n%q", got, want)
		}
		if got, want := contentHash(msgs), canon.ContextHashText(jsonText(msgs)); msgs != nil && got != want {
			t.Fatalf("contentHash %s, want %s", got, want)
		}
		var e, ref Estimator
		for _, k := range ContentKinds() {
			if rapid.Bool().Draw(t, "calibrate "+string(k)) {
				f := rapid.Float64Range(CalibrationMin, CalibrationMax).Draw(t, "factor")
				e.factor[kindIndex(k)], ref.factor[kindIndex(k)] = f, f
			}
		}
		if got, want := e.Messages(msgs), messagesReference(&ref, msgs); got != want || e.observed != ref.observed {
			t.Fatalf("price %d (observed %v), want %d (%v)", got, e.observed, want, ref.observed)
		}
	})
}
