// Package mdanchor reads the anchors GitHub gives a Markdown file's
// headings, so that tests can check the links the documentation and the
// matrix's contract references make.
package mdanchor

import (
	"bufio"
	"os"
	"strings"
	"unicode"
)

// HeadingAnchors returns the anchors of the headings of the Markdown file
// at path, leaving out lines inside fenced code blocks.
func HeadingAnchors(path string) (map[string]bool, error) {
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
		out[Slug(strings.TrimLeft(line, "# "))] = true
	}
	return out, sc.Err()
}

// Slug is GitHub's heading anchor: lower case, spaces to hyphens, every
// other character but letters, digits, hyphens and underscores dropped.
func Slug(heading string) string {
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
