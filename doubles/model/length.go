package model

import (
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/port"
)

// messageSize is jsonSize(m), counted without encoding m when it has no
// tool calls: the double measures each new message of a conversation, and
// a run's messages are mostly long texts. A message with tool calls is
// encoded (its arguments are any JSON values).
func messageSize(m port.Message) int {
	if len(m.ToolCalls) > 0 {
		return jsonSize(m)
	}
	n := len(`{"role":,"content":}`) + quotedLen(m.Role) + quotedLen(m.Content)
	if m.Thinking != "" {
		n += len(`,"thinking":`) + quotedLen(m.Thinking)
	}
	if m.ToolCallID != "" {
		n += len(`,"toolCallId":`) + quotedLen(m.ToolCallID)
	}
	if m.ToolName != "" {
		n += len(`,"toolName":`) + quotedLen(m.ToolName)
	}
	return n
}

// quotedLen is the length of s as a JSON string the way compactJSON writes
// it: quotes; \" \\ \b \f \n \r \t for those bytes; \u00XX for the other
// control bytes; \ufffd for each byte of invalid UTF-8; \u2028 and \u2029
// for those separators; every other character as its UTF-8 bytes (no HTML
// escaping).
func quotedLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			n += int(asciiEscapeExtra[b])
			i++
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			n += 5 // one byte written as six
		} else if c == '\u2028' || c == '\u2029' {
			n += 3 // three bytes written as six
		}
		i += size
	}
	return n
}

// asciiEscapeExtra is, for each ASCII byte, how many bytes its JSON escape
// adds: 1 for \" \\ \b \f \n \r \t, 5 for the other control bytes
// (\u00XX), 0 for the rest.
var asciiEscapeExtra = func() (t [utf8.RuneSelf]uint8) {
	for b := range t {
		switch {
		case b == '"' || b == '\\' || b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
			t[b] = 1
		case b < 0x20:
			t[b] = 5
		}
	}
	return t
}()
