package oracle

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/google/go-cmp/cmp"
)

// contentJSON checks contentValues and contentHas of the expected tool
// result w against the content of the tool result got, structurally: the
// content is parsed as JSON and values are compared by JSON Pointer, so
// that member order, whitespace and escaping — the host's choices — never
// decide the verdict. at is the assertion prefix, n the 1-based result.
func (c *checker) contentJSON(at string, n int, w fixture.ExpectedToolResult, content string) {
	if len(w.ContentValues) == 0 && len(w.ContentHas) == 0 {
		return
	}
	var doc any
	if err := json.Unmarshal([]byte(content), &doc); err != nil {
		hint := ""
		if strings.Contains(content, "[GALAXY OUTPUT TRUNCATED.") {
			hint = " The core bounded it for the model: assert on the host's own answer in a Go check instead."
		}
		c.fail(at+"contentValues", "content that is JSON", text(content),
			fmt.Sprintf("Tool result %d content is not JSON (%v).%s", n, err, hint))
		return
	}
	for _, ptr := range slices.Sorted(maps.Keys(w.ContentValues)) {
		want := w.ContentValues[ptr]
		got, ok := pointer(doc, ptr)
		switch {
		case !ok:
			c.fail(at+"contentValues["+strconv.Quote(ptr)+"]", ptr+" = "+compact(want), "no value at "+ptr,
				fmt.Sprintf("Tool result %d content has no value at %s (expected %s).", n, ptr, compact(want)))
		case !matches(want, got, false):
			c.fail(at+"contentValues["+strconv.Quote(ptr)+"]", ptr+" = "+compact(want), ptr+" = "+compact(got),
				fmt.Sprintf("Tool result %d content at %s: expected %s, received %s (diff -want +got: %s).", n, ptr, compact(want), compact(got), oneLine(cmp.Diff(want, got))))
		}
	}
	for _, ptr := range slices.Sorted(maps.Keys(w.ContentHas)) {
		got, ok := pointer(doc, ptr)
		arr, isArr := got.([]any)
		if !ok || !isArr {
			c.fail(at+"contentHas["+strconv.Quote(ptr)+"]", "an array at "+ptr, describe(got, ok, ptr),
				fmt.Sprintf("Tool result %d content has no array at %s.", n, ptr))
			continue
		}
		for j, pat := range w.ContentHas[ptr] {
			if !slices.ContainsFunc(arr, func(e any) bool { return matches(pat, e, true) }) {
				c.fail(fmt.Sprintf("%scontentHas[%s][%d]", at, strconv.Quote(ptr), j), "an element of "+ptr+" matching "+compact(pat), ptr+" = "+compact(got),
					fmt.Sprintf("Tool result %d content: no element of %s matches %s; received %s.", n, ptr, compact(pat), text(compact(got))))
			}
		}
	}
}

// matches reports whether got matches want. Numbers compare by value.
// When partial, an object want matches an object got that has each of
// its members with a matching value (got may have more: members the
// contract leaves to the host); otherwise objects must have the same
// members. Arrays match element by element, in order.
func matches(want, got any, partial bool) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || (!partial && len(g) != len(w)) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !matches(wv, gv, partial) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !matches(w[i], g[i], partial) {
				return false
			}
		}
		return true
	case float64:
		g, ok := got.(float64)
		return ok && g == w
	default:
		return want == got
	}
}

// pointer resolves the JSON Pointer ptr (RFC 6901) in doc; "" is doc.
func pointer(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[tok]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) || strconv.Itoa(i) != tok {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func describe(v any, ok bool, ptr string) string {
	if !ok {
		return "no value at " + ptr
	}
	return ptr + " = " + compact(v)
}

// compact renders v as compact JSON, members sorted (encoding/json sorts
// map keys), for messages.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
