package window

import (
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// messagesJSON returns jsonText(msgs) for a non-nil list, written field by
// field instead of through reflection: an item's content hash is taken
// over it when the item joins the window, and most of an item is text.
// Tool calls are written by [canon.Stringify]; "" when they do not encode,
// as jsonText answers.
func messagesJSON(msgs []port.Message) string {
	n := 2
	for _, m := range msgs {
		n += len(`{"role":"","content":"","thinking":"","toolCallId":"","toolName":""},`) +
			len(m.Role) + len(m.Content) + len(m.Thinking) + len(m.ToolCallID) + len(m.ToolName)
	}
	b := make([]byte, 0, n+n/16)
	b = append(b, '[')
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"role":`...)
		b = appendQuoted(b, m.Role)
		b = append(b, `,"content":`...)
		b = appendQuoted(b, m.Content)
		if m.Thinking != "" {
			b = append(b, `,"thinking":`...)
			b = appendQuoted(b, m.Thinking)
		}
		if len(m.ToolCalls) > 0 {
			calls, err := canon.Stringify(m.ToolCalls)
			if err != nil {
				return ""
			}
			b = append(b, `,"toolCalls":`...)
			b = append(b, calls...)
		}
		if m.ToolCallID != "" {
			b = append(b, `,"toolCallId":`...)
			b = appendQuoted(b, m.ToolCallID)
		}
		if m.ToolName != "" {
			b = append(b, `,"toolName":`...)
			b = appendQuoted(b, m.ToolName)
		}
		b = append(b, '}')
	}
	return string(append(b, ']'))
}

// appendQuoted appends s as a JSON string the way encoding/json writes it
// without HTML escaping: \" \\ \b \f \n \r \t, \u00XX for the other
// control bytes, \ufffd for each byte of invalid UTF-8, \u2028 and \u2029
// escaped, everything else as is.
func appendQuoted(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
