package reference

import (
	"bytes"
	"encoding/json"
	"maps"
	"sort"
)

// This file holds the fault seams of the checkpoint store: documents that
// alias each other (StoreAliasesDocuments) and documents answered in
// another member order (StoreReordersDocuments).

// An aliasedKind is the one object every document of a kind shares under
// StoreAliasesDocuments, and the files written from it.
type aliasedKind struct {
	shared map[string]any
	files  []string
}

// aliasPut records a put of kind under StoreAliasesDocuments, as a host
// that keeps one live object per kind and overwrites it in place would:
// the shared object takes the new document's members, and every file this
// process put of the kind is written again from it. The caller holds
// st.mu.
func (st *fileStore) aliasPut(kind, file string, doc json.RawMessage) error {
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		return err
	}
	if st.aliased == nil {
		st.aliased = map[string]*aliasedKind{}
	}
	a := st.aliased[kind]
	if a == nil {
		a = &aliasedKind{shared: map[string]any{}}
		st.aliased[kind] = a
	}
	clear(a.shared)
	maps.Copy(a.shared, m)
	a.files = append(a.files, file)
	text, err := compactJSON(a.shared)
	if err != nil {
		return err
	}
	for _, f := range a.files {
		if err := writeAtomic(f, []byte(text+"\n")); err != nil {
			return err
		}
	}
	return nil
}

// jsonbOrder re-serializes doc with the members of every object ordered as
// PostgreSQL's jsonb returns them: shorter keys first, then by bytes. A
// document that does not decode is returned unchanged.
func jsonbOrder(doc json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return doc
	}
	var b bytes.Buffer
	writeJSONB(&b, v)
	return b.Bytes()
}

func writeJSONB(b *bytes.Buffer, v any) {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if len(keys[i]) != len(keys[j]) {
				return len(keys[i]) < len(keys[j])
			}
			return keys[i] < keys[j]
		})
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			writeJSONB(b, t[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONB(b, x)
		}
		b.WriteByte(']')
	default:
		enc, _ := json.Marshal(t)
		b.Write(enc)
	}
}
