package research

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// hiddenElements hold no readable text: their content is dropped.
var hiddenElements = map[string]bool{
	"script": true, "style": true, "noscript": true, "template": true, "svg": true,
	"math": true, "iframe": true, "object": true, "canvas": true,
}

// blockElements end a line of readable text.
var blockElements = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "br": true, "dd": true,
	"details": true, "div": true, "dl": true, "dt": true, "figcaption": true, "figure": true,
	"footer": true, "form": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true,
	"h6": true, "header": true, "hr": true, "li": true, "main": true, "nav": true, "ol": true,
	"p": true, "pre": true, "section": true, "summary": true, "table": true, "td": true,
	"th": true, "tr": true, "ul": true,
}

// readableHTML reduces an HTML document to its title and visible text,
// deterministically: the text of script, style, noscript, template, svg,
// math, iframe, object and canvas elements is dropped, the title is kept
// apart, character references are decoded, every run of white space
// becomes one space, and block elements (paragraphs, headings, list items,
// table cells, br, …) end a line. Empty lines are dropped. It is not a
// layout engine: CSS that hides text is not honoured.
func readableHTML(doc []byte) (title, text string) {
	z := html.NewTokenizer(bytes.NewReader(doc))
	var lines []string
	var line, titleText strings.Builder
	hidden, inTitle := 0, false
	flush := func() {
		if s := strings.TrimSpace(line.String()); s != "" {
			lines = append(lines, s)
		}
		line.Reset()
	}
	for {
		switch z.Next() {
		case html.ErrorToken:
			flush()
			title = strings.ToValidUTF8(collapseSpace(titleText.String()), "\uFFFD")
			return title, strings.ToValidUTF8(strings.Join(lines, "\n"), "\uFFFD")
		case html.StartTagToken:
			name, _ := z.TagName()
			tag := string(name)
			switch {
			case hiddenElements[tag]:
				hidden++
			case tag == "title":
				inTitle = true
			case blockElements[tag]:
				flush()
			}
		case html.SelfClosingTagToken:
			name, _ := z.TagName()
			if blockElements[string(name)] {
				flush()
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			switch {
			case hiddenElements[tag]:
				if hidden > 0 {
					hidden--
				}
			case tag == "title":
				inTitle = false
			case blockElements[tag]:
				flush()
			}
		case html.TextToken:
			if hidden > 0 {
				continue
			}
			t := string(z.Text())
			if inTitle {
				titleText.WriteString(t)
				continue
			}
			if s := collapseSpace(t); s != "" {
				if line.Len() > 0 && startsWithSpace(t) {
					line.WriteByte(' ')
				}
				line.WriteString(s)
				if endsWithSpace(t) {
					line.WriteByte(' ')
				}
			}
		}
	}
}

func startsWithSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

func endsWithSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsSpace(r)
}

// collapseSpace trims s and turns every run of white space into one space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// boundBytes returns the longest prefix of s of at most max bytes that
// ends on a code-point boundary, and whether it is shorter than s.
func boundBytes(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	end := max
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end], true
}

// firstRunes returns the first n code points of s.
func firstRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// trimIncomplete drops a trailing, incomplete UTF-8 sequence left by a cut
// at a byte limit, so that only the bytes of the source decide validity.
func trimIncomplete(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax-1 && i <= len(b); i++ {
		c := b[len(b)-i]
		if !utf8.RuneStart(c) {
			continue
		}
		if !utf8.FullRune(b[len(b)-i:]) {
			return b[:len(b)-i]
		}
		break
	}
	return b
}
