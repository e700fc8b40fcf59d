package schema

import (
	"fmt"
	"slices"
	"strings"
)

// CheckDefinition reports every way schema leaves the supported subset
// (CONTRACTS §5.2), recursing through "items", "oneOf", "additionalProperties"
// (when a schema), "properties" and "$defs". Each message starts with the
// location of the offending schema node as a URI fragment ("#",
// "#/properties/path") followed by ": ". Problems within one node come in a
// fixed order and nodes are visited with object keys sorted, so the result
// is deterministic. An empty result means the definition is valid.
func CheckDefinition(schema map[string]any) []string {
	c := &definitionChecker{root: schema}
	if schema == nil {
		return []string{"#: a schema must be a JSON object"}
	}
	c.node(schema, nil)
	return c.problems
}

type definitionChecker struct {
	root     map[string]any
	problems []string
}

func (c *definitionChecker) addf(at []string, format string, args ...any) {
	c.problems = append(c.problems, "#"+JoinPointer(at)+": "+fmt.Sprintf(format, args...))
}

func child(at []string, tokens ...string) []string {
	return append(slices.Clone(at), tokens...)
}

func (c *definitionChecker) node(v any, at []string) {
	s, ok := v.(map[string]any)
	if !ok {
		c.addf(at, "a schema must be a JSON object")
		return
	}
	for _, k := range sortedKeys(s) {
		if !isKeyword(k) {
			c.addf(at, "unsupported keyword %q", k)
		}
	}
	if t, present := s["type"]; present {
		if ts, ok := t.(string); !ok || !isType(ts) {
			c.addf(at, `"type" must be one of %s`, strings.Join(types, ", "))
		}
	}
	c.ref(s, at)
	c.pattern(s, at)
	c.enum(s, at)
	if o, present := s["oneOf"]; present {
		if a, ok := o.([]any); !ok || len(a) == 0 {
			c.addf(at, `"oneOf" must be a non-empty array of schemas`)
		}
	}
	c.required(s, at)
	if ap, present := s["additionalProperties"]; present {
		switch ap.(type) {
		case bool, map[string]any:
		default:
			c.addf(at, `"additionalProperties" must be a boolean or a schema`)
		}
	}
	if u, present := s["uniqueItems"]; present {
		if _, ok := u.(bool); !ok {
			c.addf(at, `"uniqueItems" must be a boolean`)
		}
	}
	c.bounds(s, at)
	c.children(s, at)
}

func (c *definitionChecker) ref(s map[string]any, at []string) {
	r, present := s["$ref"]
	if !present {
		return
	}
	ref, ok := r.(string)
	if !ok || !strings.HasPrefix(ref, "#") {
		c.addf(at, `"$ref" must be a local reference starting with "#"`)
		return
	}
	if _, ok := resolveLocalRef(c.root, ref); !ok {
		c.addf(at, `"$ref" %q does not resolve to a schema in this document`, ref)
	}
}

func (c *definitionChecker) pattern(s map[string]any, at []string) {
	p, present := s["pattern"]
	if !present {
		return
	}
	ps, ok := p.(string)
	if !ok {
		c.addf(at, `"pattern" must be a string`)
		return
	}
	if _, err := compilePattern(ps); err != nil {
		c.addf(at, `"pattern" is not a valid regular expression: %v`, err)
	}
}

func (c *definitionChecker) enum(s map[string]any, at []string) {
	e, present := s["enum"]
	if !present {
		return
	}
	items, ok := e.([]any)
	if !ok || len(items) == 0 {
		c.addf(at, `"enum" must be a non-empty array`)
		return
	}
	seen := map[string]bool{}
	for _, item := range items {
		text, err := canonicalText(item)
		if err != nil {
			c.addf(at, `"enum" holds a value that is not JSON: %v`, err)
			return
		}
		if seen[text] {
			c.addf(at, `"enum" repeats the value %s`, text)
			return
		}
		seen[text] = true
	}
}

func (c *definitionChecker) required(s map[string]any, at []string) {
	r, present := s["required"]
	if !present {
		return
	}
	items, ok := r.([]any)
	if !ok {
		c.addf(at, `"required" must be an array`)
		return
	}
	var names []string
	for _, item := range items {
		name, ok := item.(string)
		if !ok || name == "" {
			c.addf(at, `"required" must hold non-empty strings only`)
			continue
		}
		names = append(names, name)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			c.addf(at, `"required" repeats the name %q`, n)
		}
		seen[n] = true
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for _, n := range names {
			if _, declared := props[n]; !declared {
				c.addf(at, `"required" names %q, which "properties" does not declare`, n)
			}
		}
	}
}

func (c *definitionChecker) bounds(s map[string]any, at []string) {
	for _, k := range []string{"minLength", "maxLength", "minItems", "maxItems"} {
		if v, present := s[k]; present {
			if _, ok := nonNegativeInteger(v); !ok {
				c.addf(at, "%q must be a non-negative integer", k)
			}
		}
	}
	for _, pair := range [][2]string{{"minLength", "maxLength"}, {"minItems", "maxItems"}} {
		lo, okLo := nonNegativeInteger(s[pair[0]])
		hi, okHi := nonNegativeInteger(s[pair[1]])
		if okLo && okHi && lo > hi {
			c.addf(at, "%q is greater than %q", pair[0], pair[1])
		}
	}
	for _, k := range []string{"minimum", "maximum"} {
		if v, present := s[k]; present {
			if _, ok := finiteNumber(v); !ok {
				c.addf(at, "%q must be a finite number", k)
			}
		}
	}
	lo, okLo := finiteNumber(s["minimum"])
	hi, okHi := finiteNumber(s["maximum"])
	if okLo && okHi && lo > hi {
		c.addf(at, `"minimum" is greater than "maximum"`)
	}
}

func (c *definitionChecker) children(s map[string]any, at []string) {
	if items, present := s["items"]; present {
		c.node(items, child(at, "items"))
	}
	if branches, ok := s["oneOf"].([]any); ok {
		for i, b := range branches {
			c.node(b, child(at, "oneOf", fmt.Sprint(i)))
		}
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		c.node(ap, child(at, "additionalProperties"))
	}
	for _, kw := range []string{"properties", "$defs"} {
		v, present := s[kw]
		if !present {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			c.addf(at, "%q must be an object", kw)
			continue
		}
		for _, k := range sortedKeys(m) {
			c.node(m[k], child(at, kw, k))
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareUTF16)
	return keys
}
