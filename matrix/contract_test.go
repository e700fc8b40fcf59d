package matrix

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// TestEveryItemNamesItsContract checks that every catalog item's Contract
// is a file of the repository with a heading whose anchor it names.
func TestEveryItemNamesItsContract(t *testing.T) {
	anchors := map[string]map[string]bool{}
	for _, it := range Items() {
		file, anchor, ok := strings.Cut(it.Contract, "#")
		if it.Contract == "" || !ok || anchor == "" {
			t.Errorf("item %d: Contract %q is not \"<repository path>#<anchor>\"", it.ID, it.Contract)
			continue
		}
		if _, seen := anchors[file]; !seen {
			a, err := headingAnchors(filepath.Join("..", filepath.FromSlash(file)))
			if err != nil {
				t.Errorf("item %d: Contract names %s: %v", it.ID, file, err)
			}
			anchors[file] = a
		}
		if !anchors[file][anchor] {
			t.Errorf("item %d: %s has no heading with the anchor #%s", it.ID, file, anchor)
		}
	}
}

func TestContractNoteNamesTheItemsContract(t *testing.T) {
	if got, want := contractNote("13-symlink-traversal/dir-symlink.json"), "\n  see hosts/wire/CONTRACTS.md#tool-error-codes"; got != want {
		t.Errorf("contractNote = %q, want %q", got, want)
	}
	if got := contractNote("99-nothing/x.json"); got != "" {
		t.Errorf("contractNote of an unknown directory = %q, want \"\"", got)
	}
}

// headingAnchors returns the GitHub anchors of a Markdown file's headings.
func headingAnchors(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	inCode := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		out[slug(strings.TrimLeft(line, "# "))] = true
	}
	return out, sc.Err()
}

// slug is GitHub's heading anchor: lower case, spaces to hyphens, every
// other character but letters, digits, hyphens and underscores dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
