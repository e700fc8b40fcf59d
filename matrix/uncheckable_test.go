package matrix_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/matrix"
)

// TestUncheckableSentencesAreDocumented keeps the uncheckable table honest:
// each entry names a sentence of "Required host guarantees" once, says why,
// and the file it names gives the reason under the sentence's key.
func TestUncheckableSentencesAreDocumented(t *testing.T) {
	known := map[string]bool{}
	for _, g := range matrix.Guarantees() {
		known[g.Key] = true
	}
	seen := map[string]bool{}
	for _, u := range matrix.UncheckableSentences() {
		if !known[u.Key] {
			t.Errorf("uncheckable %s is not a key of Required host guarantees", u.Key)
		}
		if seen[u.Key] {
			t.Errorf("uncheckable %s is listed twice", u.Key)
		}
		seen[u.Key] = true
		if strings.TrimSpace(u.Reason) == "" {
			t.Errorf("uncheckable %s gives no reason", u.Key)
		}
		b, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(u.Documented)))
		if err != nil {
			t.Errorf("uncheckable %s: its reason's file %s cannot be read: %v", u.Key, u.Documented, err)
			continue
		}
		if !strings.Contains(string(b), "**"+u.Key+"**") && !strings.Contains(string(b), "S000 "+u.Key+" ") {
			t.Errorf("uncheckable %s: %s does not name the sentence (as **%s** or S000 %s)", u.Key, u.Documented, u.Key, u.Key)
		}
	}
}

// TestEverySentenceIsCheckedOrUncheckable: every sentence of "Required
// host guarantees" is checked by a runnable item or explicitly uncheckable
// through the protocol, never both unlisted.
func TestEverySentenceIsCheckedOrUncheckable(t *testing.T) {
	for _, tr := range matrix.Traces() {
		if !tr.Checked() && tr.Uncheckable == nil {
			t.Errorf("%s is checked by no runnable item and not listed as uncheckable (matrix/guarantees.go): %s", tr.Key, tr.Text)
		}
	}
}
