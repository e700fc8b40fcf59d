package scenariofile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
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
	a := &txtar.Archive{Comment: []byte(fmt.Sprintf("# %s, imported from %s by conform import.\n# No script lines: the scenario runs once, checked by the fixture's oracle.\n", fx.Name, filepath.Base(name)))}
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

// verbatim reports whether txtar holds f's content byte for byte.
func verbatim(f fixture.File) bool {
	c := f.Content
	if c == "" || !strings.HasSuffix(c, "\n") || !utf8.ValidString(c) || strings.Contains(c, "\r") || strings.HasSuffix(f.Path, base64Suffix) {
		return false
	}
	if checkName(WorkspaceDir+f.Path) != nil {
		return false
	}
	for _, l := range strings.Split(c, "\n") {
		if strings.HasPrefix(l, "--") {
			return false
		}
	}
	return true
}
