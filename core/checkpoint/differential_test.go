package checkpoint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/canon"
	. "github.com/onsi/gomega"
)

// replacements are values a mutation puts somewhere in a checkpoint: every
// JSON type, blank and secret-bearing text, enum words, unsafe and
// non-finite numbers, and the timestamps and hashes the fields expect.
var replacements = []any{
	nil, true, false, json.Number("0"), json.Number("-1"), json.Number("1.5"), json.Number("2"), json.Number("1e400"),
	json.Number("9007199254740993"), json.Number("1.0"), json.Number("99"), "", " \t", "x", "sha256:x", "call-1",
	"Bearer ZQXabcdefghijklmnop", "sk-ZQXabcdefghijklmnop", "https://example.com/a", "2026-01-02T03:04:05.000Z",
	"2026-01-02T03:04:05Z", "file", "directory", "missing", "paths", "workspace", "passed", "pending", "satisfied",
	"milestone", "fetch", "search", "strict", "per_execution_segment", "succeeded",
	[]any{}, []any{"a"}, []any{"call-1", "call-1"}, []any{json.Number("2"), json.Number("2")},
	canon.Object{}, canon.Object{{Key: "key", Value: "k"}, {Key: "count", Value: json.Number("1")}},
}

// memberNames are names a mutation adds: unknown, forbidden, and names
// that are known somewhere in a checkpoint.
var memberNames = []string{
	"zzz", "apiKey", "reasoning", "secret", "contentHash", "title", "kind", "command", "paths", "startLine",
	"endLine", "beforeKind", "afterKind", "argumentDigest", "noProgress", "researchSources", "previousTool",
	"observationNudgeThresholds", "policy",
}

// node is a place in a tree: a container and an index into it.
type node struct {
	parent any // canon.Object or []any
	index  int
}

// nodes lists every member and element of tree, depth first.
func nodes(tree any, out []node) []node {
	switch x := tree.(type) {
	case []any:
		for i, item := range x {
			out = nodes(item, append(out, node{x, i}))
		}
	case canon.Object:
		for i, m := range x {
			out = nodes(m.Value, append(out, node{x, i}))
		}
	}
	return out
}

// mutateTree applies one random change to tree (which it may modify) and
// returns the result.
func mutateTree(t *rapid.T, tree any) any {
	all := nodes(tree, nil)
	n := all[rapid.IntRange(0, len(all)-1).Draw(t, "node")]
	// A copy: later mutations change containers in place, and a shared
	// replacement changed in place could come to hold itself.
	value := copyTree(rapid.SampledFrom(replacements).Draw(t, "value"))
	switch rapid.IntRange(0, 4).Draw(t, "op") {
	case 0: // replace the value
		switch p := n.parent.(type) {
		case []any:
			p[n.index] = value
		case canon.Object:
			p[n.index].Value = value
		}
	case 1: // delete the member or element
		return without(tree, n)
	case 2: // add a member to the object holding the value, or to the value
		obj, ok := n.parent.(canon.Object)
		if v, isObj := valueAt(n).(canon.Object); isObj && rapid.Bool().Draw(t, "inner") {
			obj, ok = v, true
		}
		if !ok {
			return tree
		}
		name := rapid.SampledFrom(memberNames).Draw(t, "name")
		if _, exists := obj.Get(name); exists {
			return tree
		}
		return replaced(tree, obj, append(obj, canon.Member{Key: name, Value: value}))
	case 3: // repeat an array element
		if arr, ok := n.parent.([]any); ok {
			return replaced(tree, arr, append(arr, arr[n.index]))
		}
	default: // swap two values of the same container
		switch p := n.parent.(type) {
		case []any:
			j := rapid.IntRange(0, len(p)-1).Draw(t, "other")
			p[n.index], p[j] = p[j], p[n.index]
		case canon.Object:
			j := rapid.IntRange(0, len(p)-1).Draw(t, "other")
			p[n.index].Value, p[j].Value = p[j].Value, p[n.index].Value
		}
	}
	return tree
}

// copyTree returns a deep copy of a JSON tree's containers.
func copyTree(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = copyTree(item)
		}
		return out
	case canon.Object:
		out := make(canon.Object, len(x))
		for i, m := range x {
			out[i] = canon.Member{Key: m.Key, Value: copyTree(m.Value)}
		}
		return out
	}
	return v
}

func valueAt(n node) any {
	switch p := n.parent.(type) {
	case []any:
		return p[n.index]
	case canon.Object:
		return p[n.index].Value
	}
	return nil
}

// without returns tree without the member or element n.
func without(tree any, n node) any {
	switch p := n.parent.(type) {
	case []any:
		return replaced(tree, p, append(p[:n.index:n.index], p[n.index+1:]...))
	case canon.Object:
		return replaced(tree, p, append(p[:n.index:n.index], p[n.index+1:]...))
	}
	return tree
}

// replaced returns tree with the container old (found by identity)
// replaced by repl.
func replaced(tree, old, repl any) any {
	if sameContainer(tree, old) {
		return repl
	}
	switch x := tree.(type) {
	case []any:
		for i, item := range x {
			x[i] = replaced(item, old, repl)
		}
	case canon.Object:
		for i, m := range x {
			x[i].Value = replaced(m.Value, old, repl)
		}
	}
	return tree
}

func sameContainer(a, b any) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	case canon.Object:
		y, ok := b.(canon.Object)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	}
	return false
}

// reseal sets the content hash of the checkpoint tree to the hash of its
// members as they are, so that validation gets past the hash to the checks
// before it; it does nothing to a tree that is not a checkpoint object.
func reseal(tree any) {
	obj, ok := tree.(canon.Object)
	if !ok {
		return
	}
	createdAt, _ := obj.Get("createdAt")
	reason, _ := obj.Get("reason")
	at, okAt := createdAt.(string)
	r, okR := reason.(string)
	raw := canon.Object{}
	for _, m := range obj {
		if m.Key != "contentHash" && m.Key != "createdAt" && m.Key != "reason" {
			raw = append(raw, m)
		}
	}
	rawJSON, err := canon.Marshal(raw)
	if !okAt || !okR || err != nil {
		return
	}
	env, err := wrapEnvelope(at, rawJSON, Reason(r))
	if err != nil {
		return
	}
	for i := range obj {
		if obj[i].Key == "contentHash" {
			obj[i].Value = canon.HashBytes(env)
		}
	}
}

// differentialInput draws serialized checkpoints: valid ones as Create and
// Serialize build them, and ones changed in their tree (a value replaced,
// a member removed or added, an element repeated, values swapped; then
// resealed or not) or in their bytes, written canonically or not.
func differentialInput(t *rapid.T) []byte {
	var data []byte
	if rapid.IntRange(0, 9).Draw(t, "full") == 0 {
		cp, err := Create(fullPayload(), ReasonMilestone, "2026-01-02T03:04:05.000Z")
		if err != nil {
			t.Fatal(err)
		}
		data, _ = Serialize(cp)
	} else {
		_, _, data = mustCreate(t, defaults())
	}
	tree, err := canon.Parse(data)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	for range rapid.IntRange(0, 3).Draw(t, "mutations") {
		tree = mutateTree(t, tree)
	}
	if rapid.Bool().Draw(t, "reseal") {
		reseal(tree)
	}
	if rapid.Bool().Draw(t, "canonical") {
		data, err = canon.Marshal(tree)
	} else {
		data, err = json.Marshal(tree) // document order, encoding/json escapes
	}
	if err != nil {
		data = []byte(fmt.Sprint(err)) // a non-finite number: not JSON at all
	}
	for range rapid.IntRange(0, 1).Draw(t, "byte-edits") {
		i := rapid.IntRange(0, len(data)-1).Draw(t, "at")
		c := rapid.SampledFrom([]byte(`0123456789abz" ,:{}[]\.-+eE`+"\xff")).Draw(t, "byte")
		data = append(bytes.Clone(data[:i]), append([]byte{c}, data[i+1:]...)...)
	}
	return data
}

// TestPropertyValidateSameAsReference: Validate returns exactly the issues
// (codes, messages, paths, order) the validator it replaced returns, for
// valid checkpoints and for changed and broken ones.
func TestPropertyValidateSameAsReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data := differentialInput(t)
		want := referenceValidate(defaults(), data)
		got := Validate(data)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Validate(%s):\n got %v\nwant %v", data, got, want)
		}
		wantCP, wantErr := referenceAssert(data)
		gotCP, gotErr := Assert(data)
		if !reflect.DeepEqual(gotErr, wantErr) || !reflect.DeepEqual(gotCP, wantCP) {
			t.Fatalf("Assert(%s):\n got %v, %v\nwant %v, %v", data, gotCP, gotErr, wantCP, wantErr)
		}
	})
}

// TestWrapEnvelopeSameAsMarshal: the envelope validation assembles around
// the payload's canonical JSON is the one Create hashes.
func TestWrapEnvelopeSameAsMarshal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := defaults()
		gc := genCheckpointCase.Draw(t, "case")
		p := o.sanitize(gc.payload)
		want, err := o.marshal(o.envelope(gc.createdAt, &p, gc.reason))
		if err != nil {
			t.Fatal(err)
		}
		pj, err := o.marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := wrapEnvelope(gc.createdAt, pj, gc.reason)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("wrapEnvelope = %s, %v\nwant %s", got, err, want)
		}
	})
}

// validateBoth is Validate, checked against referenceValidate: the
// example tables of the Validate and Assert specs run through it, so that
// every issue they show is also shown to be the reference's.
func validateBoth(data []byte) []Issue {
	got := Validate(data)
	ExpectWithOffset(1, got).To(Equal(referenceValidate(defaults(), data)), "Validate differs from the reference on %s", data)
	return got
}

// assertBoth is Assert, checked against referenceAssert.
func assertBoth(data []byte) (*Checkpoint, error) {
	cp, err := Assert(data)
	wantCP, wantErr := referenceAssert(data)
	ExpectWithOffset(1, reflect.DeepEqual(err, wantErr)).To(BeTrue(), "Assert errors %v, the reference %v, on %s", err, wantErr, data)
	ExpectWithOffset(1, reflect.DeepEqual(cp, wantCP)).To(BeTrue(), "Assert differs from the reference on %s", data)
	return cp, err
}
