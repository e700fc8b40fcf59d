package doubles

import (
	"sort"

	"fmt"
	"github.com/galaxy-stack/conform/core/canon"
)

// preview is one simulated application preview.
type preview struct {
	id, command, status, url, artifactID string
}

func (p preview) record() map[string]any {
	m := map[string]any{"command": p.command, "id": p.id, "status": p.status, "url": p.url}
	if p.artifactID != "" {
		m["artifactId"] = p.artifactID
	}
	return m
}

// previewState covers every artifact (a preview may capture one) and every
// preview, each sorted by ID.
func (t *Tools) previewState() map[string]any {
	ps := make([]preview, 0, len(t.previews))
	for _, p := range t.previews {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return canon.CompareText(ps[i].id, ps[j].id) < 0 })
	records := []map[string]any{}
	for _, p := range ps {
		records = append(records, p.record())
	}
	return map[string]any{"artifacts": t.artifactState(), "previews": records}
}

// managePreview is preview.manage: "open" records a preview on a local URL
// (optionally capturing an artifact about it); any other action closes one.
// No server starts.
func (t *Tools) managePreview(args map[string]any) outcome {
	action, bad := stringArg(args, "action")
	if bad != nil {
		return *bad
	}
	var p preview
	if action == "open" {
		command := stringOr(args, "command", "")
		if command == "" {
			return invalid("Opening a deterministic preview requires a command.")
		}
		port := jsNumber(numberOr(args, "expectPort", defaultPreviewPort))
		t.seq.preview++
		p = preview{id: fmt.Sprintf("preview-%04d", t.seq.preview), command: command, status: "open", url: "http://127.0.0.1:" + port}
		if boolOr(args, "captureArtifact", false) {
			p.artifactID = t.storeArtifact(p.id+".txt", "preview:"+p.id+"\nurl:"+p.url+"\n", "text/plain", "temporary").id
		}
	} else {
		id := stringOr(args, "sessionId", "")
		if id == "" {
			return invalid("Closing a deterministic preview requires sessionId.")
		}
		cur, ok := t.previews[id]
		if !ok {
			return contractError("NOT_FOUND", "Deterministic preview '"+id+"' does not exist.")
		}
		p = cur
		p.status = "closed"
	}
	t.previews[p.id] = p
	out := obj("action", action, "sessionId", p.id, "status", p.status, "url", p.url)
	if p.artifactID != "" {
		out = append(out, canon.Member{Key: "artifactId", Value: p.artifactID})
	}
	return outcome{output: out, summary: "Deterministic preview " + p.id + " is " + p.status + ".", trust: "trusted"}.withState(t.previewState())
}
