package expect

import (
	"reflect"
	"strings"
	"testing"
)

const sampleYAML = `# known gaps of this host
expectations:
  - item: 1
    reason: lists dotfiles
    owner: ana
    expires: 2030-01-31

  - item: R3
    reason: "no network"
    owner: bo
    expires: "2030-01-31"
    message: timeout
`

// A YAML file gives the same entries as the JSON one, each with the line
// it starts on; unquoted numbers and dates are read as strings.
func TestParseYAML(t *testing.T) {
	y, err := Parse("x.yaml", []byte(sampleYAML))
	if err != nil {
		t.Fatal(err)
	}
	j, err := Parse("x.json", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(y.Entries) != 2 || y.Entries[0].Line != 3 || y.Entries[1].Line != 8 {
		t.Fatalf("entries = %+v, want two, on lines 3 and 8", y.Entries)
	}
	for i := range y.Entries {
		a, b := y.Entries[i], j.Entries[i]
		a.Line, b.Line = 0, 0
		if !reflect.DeepEqual(a, b) {
			t.Errorf("entry %d: YAML %+v, JSON %+v", i, a, b)
		}
	}
	if _, err := Parse("x.yml", []byte(sampleYAML)); err != nil {
		t.Errorf(".yml: %v", err)
	}
}

// A YAML file is checked against the same schema, and refuses what YAML
// has and JSON does not.
func TestParseYAMLRefuses(t *testing.T) {
	for name, in := range map[string]string{
		"no owner":     "expectations:\n  - {item: 1, reason: r, expires: 2030-01-01}\n",
		"unknown key":  "expectations:\n  - {item: 1, reason: r, owner: o, expires: 2030-01-01, until: x}\n",
		"alias":        "e: &a {item: 1, reason: r, owner: o, expires: 2030-01-01}\nexpectations:\n  - *a\n",
		"two docs":     "expectations: []\n---\nexpectations: []\n",
		"not YAML":     "expectations: [\n",
		"duplicate":    "expectations: []\nexpectations: []\n",
		"not a map":    "- 1\n",
		"bad item ref": "expectations:\n  - {item: one, reason: r, owner: o, expires: 2030-01-01}\n",
	} {
		if _, err := Parse("x.yaml", []byte(in)); err == nil || !strings.Contains(err.Error(), "x.yaml") {
			t.Errorf("%s: err = %v, want an error naming the file", name, err)
		}
	}
}
