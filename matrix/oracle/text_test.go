package oracle

import "testing"

// TestContentTextIgnoresJSONLayout checks that text is found inside the
// string values of JSON content whatever the escaping, and that JSON
// structure matches only as sent (why matrix scenarios never assert it so).
func TestContentTextIgnoresJSONLayout(t *testing.T) {
	for _, tc := range []struct {
		content, frag string
		want          bool
	}{
		{`{"stdout":"dir ü\n","exitCode":0}`, "dir ü", true},
		{`{"exitCode": 0, "stdout": "dir \u00fc\n"}`, "dir ü", true},
		{`{"a":{"b":["x <y>"]}}`, "<y>", true},
		{`{"a":"\u003cy\u003e"}`, "<y>", true},
		{`{"complete":true}`, `"complete":true`, true},
		{`{"complete": true}`, `"complete":true`, false},
		{"plain text, not JSON", "text", true},
		{"plain text", "absent", false},
		{`{not json`, "not", true},
	} {
		if got := contentHasText(tc.content, tc.frag); got != tc.want {
			t.Errorf("contentHasText(%q, %q) = %v, want %v", tc.content, tc.frag, got, tc.want)
		}
	}
}
