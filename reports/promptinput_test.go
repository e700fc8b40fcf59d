package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestPromptInputIsReported checks that a document says whose prompt
// configuration the run requests held, that the schema knows both values
// and no other, and that the Markdown says so.
func TestPromptInputIsReported(t *testing.T) {
	for source, want := range map[string]string{
		"host":     "prompt input: the host's",
		"defaults": "prompt input: conform's defaults (the host supplies none)",
	} {
		d := expectedDoc()
		d.Host.PromptInput = source
		b, _ := json.Marshal(d)
		if err := Validate(b); err != nil {
			t.Errorf("promptInput %q fails the schema: %v", source, err)
		}
		var md bytes.Buffer
		if err := RenderMarkdown(&md, d); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md.String())
		}
	}
	d := expectedDoc()
	d.Host.PromptInput = "mine"
	b, _ := json.Marshal(d)
	if Validate(b) == nil {
		t.Error("an unknown promptInput passes the schema")
	}
}
