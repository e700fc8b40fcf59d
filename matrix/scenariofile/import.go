package scenariofile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/galaxy-stack/conform/matrix/fixture"
)

// Import returns the txtar scenario equivalent to the original fixture
// document data read from name: scenario.json is the document with every
// initial file that txtar holds verbatim moved out to workspace/PATH; the
// rest (content without a final newline, with a line that looks like a
// txtar marker, with a carriage return, or a path ending in .base64) stays
// in initialFiles. The script is a comment alone, so the scenario runs once,
// checked by the fixture's own oracle: the same outcome and the same
// replay hash as the JSON fixture.
func Import(name string, data []byte) ([]byte, error) {
	fx, err := fixture.Parse(name, data)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, &fixture.Error{File: name, Msg: err.Error(), Err: err}
	}
	a := &txtar.Archive{Comment: []byte(fmt.Sprintf("# %s, imported from %s by conform import.\n# No script lines: the scenario runs once, checked by the fixture's oracle.\n", commentText(fx.Name), commentText(filepath.Base(name))))}
	var keep []any
	var moved []txtar.File
	raw, _ := doc["initialFiles"].([]any)
	for i, f := range fx.InitialFiles {
		if verbatim(f) {
			moved = append(moved, txtar.File{Name: WorkspaceDir + f.Path, Data: []byte(f.Content)})
		} else if i < len(raw) {
			keep = append(keep, raw[i])
		}
	}
	if _, ok := doc["initialFiles"]; ok {
		if len(keep) == 0 {
			delete(doc, "initialFiles")
		} else {
			doc["initialFiles"] = keep
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	a.Files = append([]txtar.File{{Name: ScenarioName, Data: b.Bytes()}}, moved...)
	return txtar.Format(a), nil
}

// commentText returns s for a line of the script's comment: as it is
// when every character is graphic, else Go-quoted, so that a line break
// or a control character in a fixture's name can neither start a script
// line (or a file of the archive) nor reach a terminal raw.
func commentText(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsGraphic(r) }) < 0 {
		return s
	}
	return strconv.QuoteToGraphic(s)
}

// verbatim reports whether txtar holds f's content byte for byte.
func verbatim(f fixture.File) bool {
	c := f.Content
	if c == "" || !strings.HasSuffix(c, "\n") || !utf8.ValidString(c) || strings.Contains(c, "\r") || strings.HasSuffix(f.Path, base64Suffix) {
		return false
	}
	// txtar trims the spaces around a file's name.
	if checkName(WorkspaceDir+f.Path) != nil || strings.TrimSpace(f.Path) != f.Path {
		return false
	}
	for _, l := range strings.Split(c, "\n") {
		if strings.HasPrefix(l, "--") {
			return false
		}
	}
	return true
}
