package doubles

import (
	"fmt"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
)

// artifact is one stored text artifact.
type artifact struct {
	id, name, content, mimeType, retention, contentHash, kind string
}

// record is the artifact as the store versions it.
func (a artifact) record() map[string]any {
	return map[string]any{
		"content": a.content, "contentHash": a.contentHash, "createdAt": Epoch, "id": a.id,
		"kind": a.kind, "mimeType": a.mimeType, "name": a.name, "retention": a.retention,
	}
}

// artifactKind is the MIME type's part before "/", or "data".
func artifactKind(mimeType string) string {
	i := strings.IndexByte(mimeType, '/')
	if i <= 0 {
		return "data"
	}
	return mimeType[:i]
}

func (t *Tools) storeArtifact(name, content, mimeType, retention string) artifact {
	t.seq.artifact++
	a := artifact{
		id: fmt.Sprintf("artifact-%04d", t.seq.artifact), name: name, content: content,
		mimeType: mimeType, retention: retention, contentHash: canon.HashText(content), kind: artifactKind(mimeType),
	}
	t.artifacts[a.id] = a
	return a
}

func (t *Tools) sortedArtifacts() []artifact {
	out := make([]artifact, 0, len(t.artifacts))
	for _, a := range t.artifacts {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return canon.CompareText(out[i].id, out[j].id) < 0 })
	return out
}

func (t *Tools) artifactState() []map[string]any {
	out := []map[string]any{}
	for _, a := range t.sortedArtifacts() {
		out = append(out, a.record())
	}
	return out
}

// createArtifact is artifact.create: it stores bounded text in memory.
func (t *Tools) createArtifact(args map[string]any) outcome {
	name, bad := stringArg(args, "name")
	if bad != nil {
		return *bad
	}
	content := stringOr(args, "content", "")
	mimeType, bad := stringArg(args, "mimeType")
	if bad != nil {
		return *bad
	}
	a := t.storeArtifact(name, content, mimeType, stringOr(args, "retention", "default"))
	return outcome{
		output:  obj("id", a.id, "mimeType", a.mimeType, "contentHash", a.contentHash, "bytes", len(a.content)),
		summary: "Created deterministic artifact " + a.id + ".",
		trust:   "trusted",
	}.withState(t.artifactState())
}

// listArtifacts is artifact.list, filtered by kind and paged by an
// "offset:<n>" cursor.
func (t *Tools) listArtifacts(args map[string]any) outcome {
	kind := stringOr(args, "kind", "")
	var filtered []artifact
	for _, a := range t.sortedArtifacts() {
		if kind == "" || a.kind == kind {
			filtered = append(filtered, a)
		}
	}
	start, bad := cursor(args, "cursor", "offset:", len(filtered))
	if bad != nil {
		return *bad
	}
	end := min(len(filtered), start+count(numberOr(args, "limit", defaultArtifactLimit)))
	list := []canon.Object{}
	for _, a := range filtered[start:end] {
		list = append(list, obj("id", a.id, "kind", a.kind, "mimeType", a.mimeType, "contentHash", a.contentHash, "createdAt", Epoch))
	}
	out := obj("artifacts", list)
	if end < len(filtered) {
		out = append(out, canon.Member{Key: "nextCursor", Value: fmt.Sprintf("offset:%d", end)})
	}
	return outcome{output: out, summary: fmt.Sprintf("Listed %d deterministic artifact(s).", len(list)), trust: "trusted"}
}

// readArtifact is artifact.read, paged by a "byte:<n>" cursor.
func (t *Tools) readArtifact(args map[string]any) outcome {
	id, bad := stringArg(args, "id")
	if bad != nil {
		return *bad
	}
	a, ok := t.artifacts[id]
	if !ok {
		return contractError("NOT_FOUND", "Artifact '"+id+"' does not exist in the contract lab.")
	}
	start, bad := cursor(args, "cursor", "byte:", len(a.content))
	if bad != nil {
		return *bad
	}
	p, bad := bytePage(a.content, start, count(numberOr(args, "maxBytes", defaultArtifactBytes)))
	if bad != nil {
		return *bad
	}
	out := obj("id", id, "content", p.content, "mimeType", a.mimeType, "contentHash", a.contentHash,
		"truncated", p.truncated, "provenance", provenance("artifact:"+id, "untrusted_tool_output", a.contentHash))
	if p.truncated {
		out = append(out, canon.Member{Key: "nextCursor", Value: fmt.Sprintf("byte:%d", p.end)})
	}
	return outcome{
		output:  out,
		summary: fmt.Sprintf("Read %d character(s) from deterministic artifact %s.", canon.UTF16Len(p.content), id),
		trust:   "external",
	}
}

// analyze is perception.analyze: fixed observations of a stored artifact.
func (t *Tools) analyze(args map[string]any) outcome {
	id, bad := stringArg(args, "artifactId")
	if bad != nil {
		return *bad
	}
	mode, bad := stringArg(args, "mode")
	if bad != nil {
		return *bad
	}
	a, ok := t.artifacts[id]
	if !ok {
		return contractError("NOT_FOUND", "Artifact '"+id+"' does not exist in the contract lab.")
	}
	var observations []string
	switch mode {
	case "metadata":
		observations = []string{"mimeType=" + a.mimeType, fmt.Sprintf("bytes=%d", len(a.content)), "hash=" + a.contentHash}
	case "ocr":
		observations = []string{utf16Slice(a.content, 0, 256)}
	default:
		observations = []string{"Deterministic visual observation for " + a.name + "."}
	}
	return outcome{
		output: obj("artifactId", id, "mode", mode, "observations", observations, "confidence", 1,
			"analyzer", "galaxy-code-contract-analyzer/1",
			"provenance", provenance("artifact:"+id, "untrusted_tool_output", a.contentHash)),
		summary: "Analyzed " + id + " in deterministic " + mode + " mode.",
		trust:   "external",
	}
}
