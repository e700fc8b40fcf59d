package expect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// isYAML reports whether the expectations file path is YAML: its name
// ends in .yaml or .yml.
func isYAML(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		return true
	}
	return false
}

// fromYAML turns a YAML expectations file into the JSON it stands for,
// which the schema then checks, and returns the line each element of its
// "expectations" sequence starts on. A YAML file holds one document; its
// mapping keys are strings. Every scalar is read as a string (item: 13 is
// "13", expires: 2027-03-31 is "2027-03-31"), except true, false and null;
// anchors and aliases are refused, so a small file cannot expand into a
// large one.
func fromYAML(data []byte) ([]byte, []int, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc, more yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, fmt.Errorf("not YAML: %w", err)
	}
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, nil, errors.New("more than one YAML document; keep one")
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, nil, errors.New("want one YAML document holding a mapping with an \"expectations\" sequence")
	}
	root := doc.Content[0]
	v, err := yamlValue(root)
	if err != nil {
		return nil, nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, nil, err
	}
	var lines []int
	if root.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == "expectations" && root.Content[i+1].Kind == yaml.SequenceNode {
				for _, e := range root.Content[i+1].Content {
					lines = append(lines, e.Line)
				}
			}
		}
	}
	return b, lines, nil
}

// yamlValue is the JSON value of node n.
func yamlValue(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: a mapping key must be a plain string", k.Line)
			}
			if _, dup := m[k.Value]; dup {
				return nil, fmt.Errorf("line %d: key %q given twice", k.Line, k.Value)
			}
			v, err := yamlValue(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[k.Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		s := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlValue(c)
			if err != nil {
				return nil, err
			}
			s = append(s, v)
		}
		return s, nil
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil, nil
		case "!!bool":
			return n.Value == "true", nil
		}
		return n.Value, nil
	}
	return nil, fmt.Errorf("line %d: anchors and aliases are not accepted in an expectations file", n.Line)
}
