package checkpoint

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/gowebpki/jcs"
	"pgregory.net/rapid"
)

// mustCreate draws a case and creates its checkpoint with o.
func mustCreate(t *rapid.T, o options) (genCase, *Checkpoint, []byte) {
	gc := genCheckpointCase.Draw(t, "case")
	cp, err := o.create(gc.payload, gc.reason, gc.createdAt)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	b, err := o.marshal(cp)
	if err != nil {
		t.Fatalf("serialize: %v", err)
	}
	return gc, cp, b
}

// propCreatesValid: a created checkpoint passes validation, and Create
// does not modify its payload.
func propCreatesValid(o options) func(*rapid.T) {
	return func(t *rapid.T) {
		gc := genCheckpointCase.Draw(t, "case")
		before, _ := json.Marshal(gc.payload)
		cp, err := o.create(gc.payload, gc.reason, gc.createdAt)
		if err != nil {
			t.Fatalf("create: %v", err)
		}
		if after, _ := json.Marshal(gc.payload); !bytes.Equal(before, after) {
			t.Fatalf("create modified its payload")
		}
		b, err := o.marshal(cp)
		if err != nil {
			t.Fatalf("serialize: %v", err)
		}
		if issues := o.validate(b); len(issues) > 0 {
			t.Fatalf("created checkpoint is invalid: %v\n%s", issues, b)
		}
	}
}

// propSerialization: serialization is the RFC 8785 form whatever the
// member order and whitespace of the text it came from, and it is byte
// stable through Assert, Clone and a second Create; hashes are stable.
func propSerialization(o options) func(*rapid.T) {
	return func(t *rapid.T) {
		gc, cp, b := mustCreate(t, o)
		tree, err := canon.Parse(b)
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		shuffled, err := json.Marshal(shuffleTree(t, tree))
		if err != nil {
			t.Fatalf("marshal shuffled: %v", err)
		}
		if rapid.Bool().Draw(t, "indent") {
			var out bytes.Buffer
			_ = json.Indent(&out, shuffled, "", rapid.SampledFrom([]string{" ", "\t", "  "}).Draw(t, "indent.text"))
			shuffled = out.Bytes()
		}
		want, err := jcs.Transform(shuffled)
		if err != nil {
			t.Fatalf("jcs: %v", err)
		}
		if !bytes.Equal(b, want) {
			t.Fatalf("serialization is not canonical:\n got %s\nwant %s", b, want)
		}
		back, err := o.assert(shuffled)
		if err != nil {
			t.Fatalf("assert of a reordered checkpoint: %v", err)
		}
		for name, c := range map[string]*Checkpoint{"assert": back, "clone": cp.Clone()} {
			again, err := o.marshal(c)
			if err != nil || !bytes.Equal(again, b) {
				t.Fatalf("%s changed the bytes: %s (%v)", name, again, err)
			}
		}
		second, err := o.create(gc.payload, gc.reason, gc.createdAt)
		if err != nil || second.ContentHash != cp.ContentHash {
			t.Fatalf("same input, different hash: %s vs %s (%v)", second.ContentHash, cp.ContentHash, err)
		}
	}
}

// propNoSecrets: no secret of any redacted field survives in the
// serialized checkpoint or in the model-visible message.
func propNoSecrets(o options) func(*rapid.T) {
	return func(t *rapid.T) {
		gc, cp, b := mustCreate(t, o)
		msg, err := FormatMessage(cp)
		if err != nil {
			t.Fatalf("format: %v", err)
		}
		for _, s := range gc.secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Fatalf("secret %q survived in %s", s, b)
			}
			if o.skipRedaction == "" && bytes.Contains([]byte(msg), []byte(s)) {
				t.Fatalf("secret %q survived in the message", s)
			}
		}
	}
}

// propTamper: any single-byte change of a serialized checkpoint is
// reported by validation.
func propTamper(o options) func(*rapid.T) {
	return func(t *rapid.T) {
		_, _, b := mustCreate(t, o)
		i := rapid.IntRange(0, len(b)-1).Draw(t, "index")
		c := rapid.OneOf(rapid.SampledFrom([]byte(`0123456789abz" ,:{}[]\.-+eE`)), rapid.Byte()).
			Filter(func(c byte) bool { return c != b[i] }).Draw(t, "byte")
		checkTamper(t, o, b, i, c)
	}
}

// checkTamper fails t if changing b[i] to c goes unnoticed.
func checkTamper(t rapid.TB, o options, b []byte, i int, c byte) {
	changed := bytes.Clone(b)
	changed[i] = c
	if issues := o.validate(changed); len(issues) == 0 {
		t.Fatalf("byte %d changed from %q to %q went unnoticed:\n%s", i, b[i], c, changed)
	}
}

// propCloneIsolated: changing any value inside a clone never changes the
// original.
func propCloneIsolated(clone func(*Checkpoint) *Checkpoint) func(*rapid.T) {
	return func(t *rapid.T) {
		_, cp, _ := mustCreate(t, defaults())
		before, _ := Serialize(cp)
		c := clone(cp)
		leaves := settableLeaves(reflect.ValueOf(c).Elem())
		if len(leaves) == 0 {
			t.Fatalf("no leaves")
		}
		mutate(leaves[rapid.IntRange(0, len(leaves)-1).Draw(t, "leaf")])
		if after, _ := Serialize(cp); !bytes.Equal(before, after) {
			t.Fatalf("mutating the clone changed the original:\n%s\n%s", before, after)
		}
	}
}

// settableLeaves lists every string, integer and boolean reachable from v.
func settableLeaves(v reflect.Value) []reflect.Value {
	var out []reflect.Value
	switch v.Kind() {
	case reflect.String, reflect.Int64, reflect.Int, reflect.Bool:
		out = append(out, v)
	case reflect.Pointer:
		if !v.IsNil() {
			out = append(out, settableLeaves(v.Elem())...)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			out = append(out, settableLeaves(v.Field(i))...)
		}
	case reflect.Slice:
		for i := range v.Len() {
			out = append(out, settableLeaves(v.Index(i))...)
		}
	}
	return out
}

// mutate changes a leaf in place.
func mutate(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "~")
	case reflect.Int64, reflect.Int:
		v.SetInt(v.Int() + 1)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	}
}

// shuffleTree permutes the members of every object.
func shuffleTree(t *rapid.T, tree any) any {
	switch x := tree.(type) {
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = shuffleTree(t, item)
		}
		return out
	case canon.Object:
		idx := make([]int, len(x))
		for i := range idx {
			idx[i] = i
		}
		perm := rapid.Permutation(idx).Draw(t, "permutation")
		out := make(canon.Object, len(x))
		for i, j := range perm {
			out[i] = canon.Member{Key: x[j].Key, Value: shuffleTree(t, x[j].Value)}
		}
		return out
	}
	return tree
}

func TestPropertyCreatesValid(t *testing.T)  { rapid.Check(t, propCreatesValid(defaults())) }
func TestPropertySerialization(t *testing.T) { rapid.Check(t, propSerialization(defaults())) }
func TestPropertyNoSecrets(t *testing.T)     { rapid.Check(t, propNoSecrets(defaults())) }
func TestPropertyTamper(t *testing.T)        { rapid.Check(t, propTamper(defaults())) }
func TestPropertyCloneIsolated(t *testing.T) {
	rapid.Check(t, propCloneIsolated((*Checkpoint).Clone))
}
