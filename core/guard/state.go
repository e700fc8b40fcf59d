package guard

import (
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/faults"
)

// Evidence is the controller's run evidence after a result's effects were
// applied: what the state version of RUNTIME §17 step 5 is computed from,
// and what finalization readiness (§19.2) reads its provisional
// fingerprint from. The guard only reads it.
type Evidence struct {
	Plan           checkpoint.Plan
	Criteria       []checkpoint.Criterion
	InspectedPaths []string
	Research       []checkpoint.ResearchSource
	Writes         []checkpoint.Edit
	Validations    []checkpoint.ValidationRecord
	DiffReview     *checkpoint.DiffReview
}

// semanticReview is the review part of the semantic evidence projection.
type semanticReview struct {
	CoveredWriteSequence int64  `json:"coveredWriteSequence"`
	DiffHash             string `json:"diffHash"`
	WorkspaceFingerprint string `json:"workspaceFingerprint"`
}

// semanticValidation is one validation of the semantic evidence projection.
type semanticValidation struct {
	CoveredWriteSequence int64                       `json:"coveredWriteSequence"`
	ID                   string                      `json:"id"`
	Status               checkpoint.ValidationStatus `json:"status"`
	WorkspaceFingerprint string                      `json:"workspaceFingerprint"`
}

// semanticEvidence is the projection of RUNTIME §17 step 6: a repeated
// identical validation or review is not progress unless it newly covers a
// write.
type semanticEvidence struct {
	Review      *semanticReview      `json:"review"`
	Validations []semanticValidation `json:"validations"`
}

func projectSemantic(ev Evidence) semanticEvidence {
	latest := map[string]checkpoint.ValidationRecord{}
	for _, v := range ev.Validations {
		if prev, ok := latest[v.ID]; !ok || prev.Sequence <= v.Sequence {
			latest[v.ID] = v
		}
	}
	covered := func(seq int64, scope *checkpoint.ValidationRecord) int64 {
		var most int64
		for _, w := range ev.Writes {
			if w.Sequence < seq && (scope == nil || coveredByValidation(w.Path, *scope)) {
				most = max(most, w.Sequence)
			}
		}
		return most
	}
	out := semanticEvidence{Validations: []semanticValidation{}}
	if r := ev.DiffReview; r != nil {
		out.Review = &semanticReview{CoveredWriteSequence: covered(r.Sequence, nil), DiffHash: r.DiffHash, WorkspaceFingerprint: r.WorkspaceFingerprint}
	}
	for _, id := range sortedKeys(latest) {
		v := latest[id]
		out.Validations = append(out.Validations, semanticValidation{
			CoveredWriteSequence: covered(v.Sequence, &v), ID: v.ID, Status: v.Status, WorkspaceFingerprint: v.WorkspaceFingerprint,
		})
	}
	// Core fault: each observation's own causal sequence is projected, so
	// an identical re-run looks like progress.
	if faults.On(faults.GuardCountsIdenticalObservationAsProgress) {
		if out.Review != nil {
			out.Review.CoveredWriteSequence = ev.DiffReview.Sequence
		}
		for i := range out.Validations {
			out.Validations[i].CoveredWriteSequence = latest[out.Validations[i].ID].Sequence
		}
	}
	return out
}

// coveredByValidation reports whether a write to path falls in the scope of
// v: a workspace scope covers everything; a path scope covers its paths and
// everything below them ("." covers all), after normalizing backslashes,
// a leading "./" and a trailing "/".
func coveredByValidation(path string, v checkpoint.ValidationRecord) bool {
	if v.Scope == checkpoint.ScopeWorkspace {
		return true
	}
	p := strings.TrimPrefix(strings.ReplaceAll(path, `\`, "/"), "./")
	for _, s := range v.Paths {
		s = strings.TrimSuffix(strings.TrimPrefix(strings.ReplaceAll(s, `\`, "/"), "./"), "/")
		if s == "" {
			s = "."
		}
		if s == "." || p == s || strings.HasPrefix(p, s+"/") {
			return true
		}
	}
	return false
}

// nextStateVersion is the hash of RUNTIME §17 step 5 over the evidence and
// the host state versions.
func (g *Guard) nextStateVersion(ev Evidence) string {
	hosts := make([][2]string, 0, len(g.hostStateVersions))
	for _, k := range sortedKeys(g.hostStateVersions) {
		hosts = append(hosts, [2]string{k, g.hostStateVersions[k]})
	}
	inspections := slices.Clone(ev.InspectedPaths)
	canon.SortStrings(inspections)
	h, err := canon.Hash(struct {
		HostStateVersions [][2]string                 `json:"hostStateVersions"`
		Plan              checkpoint.Plan             `json:"plan"`
		SemanticEvidence  semanticEvidence            `json:"semanticEvidence"`
		Criteria          []checkpoint.Criterion      `json:"criteria"`
		Inspections       []string                    `json:"inspections"`
		Research          []checkpoint.ResearchSource `json:"research"`
		Writes            []checkpoint.Edit           `json:"writes"`
	}{hosts, ev.Plan, projectSemantic(ev), orEmpty(ev.Criteria), orEmpty(inspections), orEmpty(ev.Research), orEmpty(ev.Writes)})
	if err != nil {
		// Every member is a string, integer, boolean or a list of them.
		panic("guard: state version hash failed: " + err.Error())
	}
	return h
}

// orEmpty turns nil into an empty slice so that nil and empty hash alike.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
