package items

import (
	"regexp"
	"strings"

	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// deepTreeDepth is the depth of the one .py file of item 27's
// deep-tree.json (l01/…/l21/main.py; an entry of the root is at depth 1).
const deepTreeDepth = 22

// nameSeparators split a warning into the names it mentions: whitespace,
// punctuation that never ends a path segment, and quotes.
const nameSeparators = "[\\s,;:()\\[\\]{}\"'`]+"

// warningNames returns the words of a project.detect content's warnings,
// each without a sentence's final period: the names the warnings mention,
// whatever their sentences. The wording of warnings is the host's choice
// (hosts/wire/CONTRACTS.md "Host's choices"); the facts they carry are not.
func warningNames(content map[string]any) []string {
	var names []string
	sep := regexp.MustCompile(nameSeparators)
	ws, _ := content["warnings"].([]any)
	for _, w := range ws {
		s, _ := w.(string)
		for _, tok := range sep.Split(s, -1) {
			if tok = strings.TrimRight(tok, "."); tok != "" {
				names = append(names, tok)
			}
		}
	}
	return names
}

// namesInWarnings checks that the warnings of the detect call name name.
func namesInWarnings(name string) kit.Check {
	return func(o *kit.Outcome) {
		c := o.ContentOf("detect")
		Expect(warningNames(c)).To(ContainElement(name), "%s: detect_project must report the malformed %s in its warnings, naming it; warnings: %v", o.File, name, c["warnings"])
	}
}
