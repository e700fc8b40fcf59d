package mdanchor

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Result envelope":                        "result-envelope",
		"Host's choices":                         "hosts-choices",
		"`initialize` (harness → host)":          "initialize-harness--host",
		"Idempotency and timeouts":               "idempotency-and-timeouts",
		"Store and trace documents":              "store-and-trace-documents",
		"research_fetch: under_score & digits 2": "research_fetch-under_score--digits-2",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHeadingAnchorsSkipCode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.md")
	if err := os.WriteFile(p, []byte("# Top\ntext\n```\n# not a heading\n```\n## Second part\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := HeadingAnchors(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got["top"] || !got["second-part"] {
		t.Errorf("HeadingAnchors = %v, want top and second-part only", got)
	}
}
