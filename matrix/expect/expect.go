// Package expect reads an expectations file: the matrix items a host is
// allowed to fail, each with a reason, an owner and an expiry date,
// optionally pinned to a substring of the failure (conform certify
// --expect FILE). The file is JSON, or YAML when its name ends in .yaml or
// .yml, and follows the JSON Schema schema/expectations.schema.json
// ([SchemaJSON]), which Parse checks (a YAML file as the JSON it stands
// for).
//
// [File.Apply] marks the failures an entry expects in a result document
// and returns the entries that must go: stale ones (the item no longer
// fails), expired ones and unknown items, each with the file and line of
// the entry to delete.
package expect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/galaxy-stack/conform/matrix"
)

// An Entry is one item the host is allowed to fail.
type Entry struct {
	// Item is the item's reference as written, "13" or "R1", and ID the
	// item it names.
	Item string `json:"item"`
	ID   int    `json:"-"`
	// Reason says why the host fails the item, Owner who answers for it.
	Reason string `json:"reason"`
	Owner  string `json:"owner"`
	// Expires is the last day (YYYY-MM-DD) the failure is allowed.
	Expires string `json:"expires"`
	// Message, when set, is a substring the item's failure reason must
	// contain: another failure of the item is not expected.
	Message string `json:"message,omitempty"`
	// Check, when set, names one check of the item (a scenario file
	// without .json, or a spec's text: conform matrix --json lists them):
	// the entry allows that check to fail, and the item's failure is
	// expected when entries name every check it failed on.
	Check string `json:"check,omitempty"`
	// Line is the line of the file where the entry starts.
	Line int `json:"-"`
}

// A File is a parsed expectations file.
type File struct {
	// Path is the file's name as given.
	Path    string
	Entries []Entry
}

// Read reads and parses the expectations file at path.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("expectations file: %w", err)
	}
	return Parse(path, data)
}

// Parse parses data, the content of the expectations file path (YAML when
// path ends in .yaml or .yml, else JSON): it must be valid against the
// schema, and each entry records the line it starts on.
func Parse(path string, data []byte) (*File, error) {
	var yamlLines []int
	if isYAML(path) {
		b, lines, err := fromYAML(data)
		if err != nil {
			return nil, fmt.Errorf("expectations file %s: %w", path, err)
		}
		data, yamlLines = b, lines
	}
	if err := Validate(data); err != nil {
		return nil, fmt.Errorf("expectations file %s: %w", path, err)
	}
	var doc struct {
		Expectations []Entry `json:"expectations"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("expectations file %s: %w", path, err)
	}
	lines := yamlLines
	if !isYAML(path) {
		var err error
		if lines, err = entryLines(data); err != nil {
			return nil, fmt.Errorf("expectations file %s: %w", path, err)
		}
	}
	if len(lines) != len(doc.Expectations) {
		return nil, fmt.Errorf("expectations file %s: found %d entries but %d entry positions; give the file one \"expectations\" member", path, len(doc.Expectations), len(lines))
	}
	f := &File{Path: path, Entries: doc.Expectations}
	for i := range f.Entries {
		e := &f.Entries[i]
		e.Line = lines[i]
		id, err := matrix.ParseRef(e.Item)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, e.Line, err)
		}
		e.ID = id
	}
	return f, nil
}

// entryLines returns the line each element of the top-level
// "expectations" array starts on, in order, reading data with a JSON
// decoder that tracks its offset.
func entryLines(data []byte) ([]int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var lines []int
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if key != "expectations" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
			continue
		}
		if _, err := dec.Token(); err != nil { // [
			return nil, err
		}
		for dec.More() {
			lines = append(lines, lineAt(data, int(dec.InputOffset())))
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
		}
		if _, err := dec.Token(); err != nil { // ]
			return nil, err
		}
	}
	if lines == nil && !bytes.Contains(data, []byte(`"expectations"`)) {
		return nil, errors.New(`no "expectations" member`)
	}
	return lines, nil
}

// lineAt is the 1-based line of the first byte at or after off that is
// neither white space nor the comma between two values.
func lineAt(data []byte, off int) int {
	for off < len(data) && bytes.IndexByte([]byte(" \t\r\n,"), data[off]) >= 0 {
		off++
	}
	return 1 + bytes.Count(data[:off], []byte("\n"))
}
