package reports

import (
	"encoding/json"
	"fmt"
	"slices"
)

// MergeKind is the kind of a merge document: several result documents in
// one file, as `conform report merge` writes it.
const MergeKind = "merge"

// Merged is a merge document: result documents of several hosts or
// systems, each shard set combined into one document.
type Merged struct {
	SchemaVersion string      `json:"schemaVersion"`
	Kind          string      `json:"kind"`
	Documents     []*Document `json:"documents"`
}

// shardKey is what documents of one certification share: the same host
// and build on the same system.
func shardKey(d *Document) string {
	return fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%s\x00%s", d.Kind, HostLabel(d), d.Host.BinarySHA256, d.OS, d.Arch, d.MatrixVersion)
}

// Merge combines documents: those of the same host, build and system (the
// shards of one certification) become one document with the union of
// their items; the others stay separate, in the order first seen. An item
// present in two shards with different statuses is an error naming it.
// It takes time linear in the number of items, plus the sort of each
// merged document's items.
func Merge(docs []*Document) (*Merged, error) {
	m := &Merged{SchemaVersion: SchemaVersion, Kind: MergeKind, Documents: []*Document{}}
	type merging struct {
		d     *Document
		index map[string]int // item reference -> index in d.Items
	}
	byKey := map[string]*merging{}
	for _, d := range docs {
		k := shardKey(d)
		into, ok := byKey[k]
		if !ok {
			c := *d
			c.Items = slices.Clone(d.Items)
			into = &merging{d: &c, index: make(map[string]int, len(c.Items))}
			for i, it := range c.Items {
				if _, dup := into.index[ItemRef(it)]; !dup {
					into.index[ItemRef(it)] = i
				}
			}
			byKey[k] = into
			m.Documents = append(m.Documents, &c)
			continue
		}
		for _, it := range d.Items {
			ref := ItemRef(it)
			i, ok := into.index[ref]
			if !ok {
				into.index[ref] = len(into.d.Items)
				into.d.Items = append(into.d.Items, it)
				continue
			}
			if into.d.Items[i].Status != it.Status {
				return nil, fmt.Errorf("item %s of host %s is %s in one document and %s in another; merge documents of different runs separately", ref, HostLabel(d), into.d.Items[i].Status, it.Status)
			}
		}
		into.d.Interrupted = into.d.Interrupted || d.Interrupted
		if d.StartedAt != "" && (into.d.StartedAt == "" || d.StartedAt < into.d.StartedAt) {
			into.d.StartedAt = d.StartedAt
		}
	}
	for _, d := range m.Documents {
		sortItems(d.Items)
		d.Tally()
	}
	return m, nil
}

// DecodeAny reads a result document or a merge document and returns the
// result documents it holds, each checked against the schema.
func DecodeAny(data []byte) ([]*Document, error) {
	var head struct {
		Kind      string            `json:"kind"`
		Documents []json.RawMessage `json:"documents"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a conform result document: %w", err)
	}
	if head.Kind != MergeKind {
		d, err := Decode(data)
		if err != nil {
			return nil, err
		}
		return []*Document{d}, nil
	}
	var out []*Document
	for i, raw := range head.Documents {
		d, err := Decode(raw)
		if err != nil {
			return nil, fmt.Errorf("document %d of the merge: %w", i+1, err)
		}
		out = append(out, d)
	}
	return out, nil
}
