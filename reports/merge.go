package reports

import (
	"encoding/json"
	"fmt"
	"slices"
)

// MergeKind is the kind of a cross document: result documents of several
// hosts or systems in one file, as `conform report merge` writes them. Its
// JSON Schema is schema/merge.schema.json ([MergeSchemaJSON]).
const MergeKind = "merge"

// Merged is what [Merge] makes of its inputs: one result document per
// host and system, the shards of each combined. Written with
// [WriteMerged], one document is written as an ordinary result document,
// several as a cross document of kind [MergeKind].
type Merged struct {
	SchemaVersion string      `json:"schemaVersion"`
	Kind          string      `json:"kind"`
	Documents     []*Document `json:"documents"`
}

// A MergeInput is one document to merge and the name of the file it came
// from, which errors quote.
type MergeInput struct {
	Name string
	Doc  *Document
}

// hostKey is what the documents of one host on one system share: they
// are shards of one certification, or mismatched ones. A different
// binary or interpreted program is another host.
func hostKey(d *Document) string {
	h := d.Host
	return fmt.Sprintf("%q %q %q %q %q %q %q %q %q %q", d.Kind, h.Command, h.Mutant, h.Variant, h.CoreFault,
		h.BinarySHA256, h.ProgramPath, h.ProgramSHA256, d.OS, d.Arch)
}

// merging is the document being built from the shards of one host.
type merging struct {
	d     *Document
	first string         // the name of its first shard
	index map[string]int // item reference -> index in d.Items
	from  []string       // from[i] names the shard d.Items[i] came from
}

// Merge combines documents. Those of the same host (command, mutant or
// variant, binary and program digests) on the same OS and architecture are
// shards of one certification and become one document: they must come
// from the same harness version and commit and the same matrix version,
// and agree on what the host said it is (name, version, tools); the items
// are the union of theirs, sorted as a serial run sorts them, and the
// summary is counted from the items, never copied. An item in two shards
// must have the same status in both, and the first one (in argument order)
// is kept; two statuses are an error naming both files. Documents of other
// hosts or systems stay separate, in the order first seen.
//
// Everything else of a merged document is what a serial run of the union
// of the selections would write: the planned items are the union of the
// shards', interrupted is set when any shard was, and startedAt is the
// earliest. It takes time linear in the number of items, plus a sort.
func Merge(inputs []MergeInput) (*Merged, error) {
	m := &Merged{SchemaVersion: SchemaVersion, Kind: MergeKind, Documents: []*Document{}}
	var order []*merging
	byKey := map[string]*merging{}
	for _, in := range inputs {
		d := in.Doc
		k := hostKey(d)
		into, ok := byKey[k]
		if !ok {
			c := *d
			c.Items = make([]Item, 0, len(d.Items))
			c.Planned = nil
			into = &merging{d: &c, first: in.Name, index: make(map[string]int, len(d.Items))}
			byKey[k] = into
			order = append(order, into)
		} else if err := into.join(in); err != nil {
			return nil, err
		}
		for _, it := range d.Items {
			ref := ItemRef(it)
			i, ok := into.index[ref]
			if !ok {
				into.index[ref] = len(into.d.Items)
				into.d.Items = append(into.d.Items, it)
				into.from = append(into.from, in.Name)
				continue
			}
			if got := into.d.Items[i].Status; got != it.Status {
				return nil, fmt.Errorf("item %s of host %s is %s in %s and %s in %s: these are not shards of one run; merge them separately", ref, HostLabel(d), got, into.from[i], it.Status, in.Name)
			}
		}
		into.d.Planned = append(into.d.Planned, d.Planned...)
	}
	for _, g := range order {
		d := g.d
		sortItems(d.Items)
		slices.Sort(d.Planned)
		d.Planned = slices.Compact(d.Planned)
		if len(d.Planned) == 0 {
			d.Planned = nil
		}
		d.Tally()
		m.Documents = append(m.Documents, d)
	}
	return m, nil
}

// join checks that in is a shard of the same run as the documents merged
// into g so far, and merges its document-wide fields into g.
func (g *merging) join(in MergeInput) error {
	d, into := in.Doc, g.d
	if d.Kind == KindSelfTest {
		return fmt.Errorf("%s and %s are both self-test documents of %s; a self-test cannot be split into shards, so they cannot be merged into one", g.first, in.Name, HostLabel(d))
	}
	mismatch := func(what, a, b string) error {
		return fmt.Errorf("%s and %s are documents of host %s on %s/%s but of different %s (%q and %q): shards of one run share it; certify the shards again with one conform and one matrix", g.first, in.Name, HostLabel(d), d.OS, d.Arch, what, a, b)
	}
	switch {
	case d.Harness.Version != into.Harness.Version:
		return mismatch("harness versions", into.Harness.Version, d.Harness.Version)
	case d.Harness.Commit != into.Harness.Commit || d.Harness.Modified != into.Harness.Modified:
		return mismatch("harness builds", buildLabel(into.Harness), buildLabel(d.Harness))
	case d.MatrixVersion != into.MatrixVersion:
		return mismatch("matrix versions", into.MatrixVersion, d.MatrixVersion)
	}
	// What the host says it is: a shard whose host never answered
	// initialize knows nothing, and agrees with any other.
	for _, f := range []struct {
		what     string
		dst, src *string
	}{
		{"host names", &into.Host.Name, &d.Host.Name},
		{"host versions", &into.Host.Version, &d.Host.Version},
		{"tool profiles", &into.Host.ToolProfile, &d.Host.ToolProfile},
		{"prompt inputs", &into.Host.PromptInput, &d.Host.PromptInput},
	} {
		if err := agree(f.dst, *f.src, func(a, b string) error { return mismatch(f.what, a, b) }); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		what     string
		dst, src *[]string
	}{
		{"advertised tools", &into.Host.Tools, &d.Host.Tools},
		{"doubles", &into.Host.Doubles, &d.Host.Doubles},
	} {
		switch {
		case len(*f.src) == 0:
		case len(*f.dst) == 0:
			*f.dst = *f.src
		case !slices.Equal(*f.dst, *f.src):
			return mismatch(f.what, fmt.Sprint(*f.dst), fmt.Sprint(*f.src))
		}
	}
	into.Interrupted = into.Interrupted || d.Interrupted
	if d.StartedAt != "" && (into.StartedAt == "" || d.StartedAt < into.StartedAt) {
		into.StartedAt = d.StartedAt
	}
	return nil
}

// agree sets *dst to src when *dst is empty, and returns bad(*dst, src)
// when both are set and differ.
func agree(dst *string, src string, bad func(a, b string) error) error {
	switch {
	case src == "":
	case *dst == "":
		*dst = src
	case *dst != src:
		return bad(*dst, src)
	}
	return nil
}

// buildLabel names a conform build: its commit, marked when modified.
func buildLabel(h Harness) string {
	s := h.Commit
	if s == "" {
		s = "no commit"
	}
	if h.Modified {
		s += " (modified)"
	}
	return s
}

// AnyFailed reports whether any item of docs failed and no expectation allows
// it: the merged verdict.
func AnyFailed(docs ...*Document) bool {
	for _, d := range docs {
		if d.Counts().Unexpected() > 0 {
			return true
		}
	}
	return false
}

// WriteMerged writes m to path atomically, as [WriteFile] does: its only
// document as a result document, or several as a cross document. What it
// writes is checked against the schema of its kind first, and a document
// that fails it is not written.
func WriteMerged(path string, m *Merged) error {
	var v any = m
	validate := ValidateMerge
	if len(m.Documents) == 1 {
		v, validate = m.Documents[0], Validate
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := validate(b); err != nil {
		return fmt.Errorf("the merged document does not match its schema (a bug in conform; please report it): %w", err)
	}
	return writeAtomic(path, append(b, '\n'))
}

// DecodeAny reads a result document or a cross document and returns the
// result documents it holds, each checked against the schema of its
// kind.
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
	if err := ValidateMerge(data); err != nil {
		return nil, fmt.Errorf("not a valid merge document: %w", err)
	}
	return out, nil
}
