package oracle_test

import (
	"maps"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/oracle"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// seeds are the original fixtures and campaign stages, as the fixture
// package keeps them.
var seeds = []string{"../fixture/testdata/fixtures", "../fixture/testdata/campaigns/progressive-project"}

// ideal builds the observation that meets exactly what fx expects: each
// declared list as declared, each fragment present, every declared change
// made and backed by write evidence.
func ideal(fx *fixture.Fixture) *oracle.Observed {
	e := fx.Expected
	if e == nil {
		e = &fixture.Expected{}
	}
	o := &oracle.Observed{
		Status:            fx.Settings().ExpectedStatus,
		ExecutionStatuses: e.ExecutionStatuses,
		ToolSequence:      e.ToolSequence,
		ContextPressures:  e.ContextPressures,
		RetryDelaysMs:     e.RetryDelaysMs,
		FinalResponse:     strings.Join(e.FinalResponseIncludes, "\n"),
		Transitions:       e.TransitionsInclude,
		TraceKinds:        slices.Clone(e.TraceKindsInclude),
		ControlsFired:     oracle.ControlsFired(len(fx.Controls), nil),
		Files:             map[string]oracle.File{},
	}
	if e.ErrorCode != nil {
		o.ErrorCode = e.ErrorCode.Ptr()
	}
	for _, r := range e.CheckpointReasons {
		o.Checkpoints = append(o.Checkpoints, oracle.Checkpoint{Reason: r})
	}
	if e.CompletionIssuesInclude != nil {
		o.CompletionRejections = [][]string{e.CompletionIssuesInclude}
	}
	if e.ModelRequestCount != nil {
		o.ModelRequestCount = *e.ModelRequestCount
	}
	if e.AllModelStepsConsumed == nil || *e.AllModelStepsConsumed {
		o.ModelRoundsConsumed = len(fx.Rounds)
		if fx.Model != nil {
			o.ModelTokenCountStepsConsumed = len(fx.Model.TokenCountSteps)
		}
	}
	if e.MinTraceEvents != nil {
		for len(o.TraceKinds) < *e.MinTraceEvents {
			o.TraceKinds = append(o.TraceKinds, "event")
		}
	}
	for _, t := range e.ToolResults {
		r := oracle.ToolResult{Content: strings.Join(t.ContentIncludes, " ")}
		if t.ToolName != nil {
			r.ToolName = *t.ToolName
		}
		if t.CanonicalToolID != nil {
			r.CanonicalToolID = *t.CanonicalToolID
		}
		r.OK = t.OK == nil || *t.OK
		if t.ErrorCode != nil {
			r.ErrorCode = t.ErrorCode.Ptr()
		}
		if t.SummaryIncludes != nil {
			r.Summary = *t.SummaryIncludes
		}
		o.ToolResults = append(o.ToolResults, r)
	}
	changed := map[string]bool{}
	for _, p := range e.AllowedChanges {
		changed[p] = true
	}
	initial, final := map[string]snapshot.Entry{}, map[string]snapshot.Entry{}
	for _, f := range e.Files {
		if f.Absent {
			o.Files[f.Path] = oracle.File{Kind: "missing", ErrorCode: "NOT_FOUND"}
			continue
		}
		content := strings.Join(f.ContentIncludes, "\n")
		if f.Content != nil {
			content = *f.Content
		}
		o.Files[f.Path] = oracle.File{Kind: "file", Content: content}
		final[f.Path] = snapshot.Entry{Path: f.Path, Kind: "file", Hash: sha(content)}
		if !changed[f.Path] {
			initial[f.Path] = final[f.Path]
		}
	}
	for p := range changed {
		if _, ok := final[p]; !ok && o.Files[p].Kind != "missing" {
			final[p] = snapshot.Entry{Path: p, Kind: "file", Hash: sha(p)}
		}
		if o.Files[p].Kind == "missing" {
			initial[p] = snapshot.Entry{Path: p, Kind: "file", Hash: sha("before")}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(changed)) {
		w := port.Write{Path: p, AfterKind: "missing"}
		if a, ok := final[p]; ok {
			w.AfterKind, w.AfterHash = "file", ptr(a.Hash)
		}
		o.Writes = append(o.Writes, w)
	}
	o.Initial, o.Final = sorted(initial), sorted(final)
	return o
}

func sorted(m map[string]snapshot.Entry) snapshot.Snapshot {
	var s snapshot.Snapshot
	for _, e := range m {
		s = append(s, e)
	}
	slices.SortFunc(s, func(a, b snapshot.Entry) int { return strings.Compare(a.Path, b.Path) })
	return s
}

var _ = Describe("the original fixtures", func() {
	var all []*fixture.Fixture
	BeforeEach(func() {
		all = nil
		for _, dir := range seeds {
			fs, err := fixture.Load(dir)
			Expect(err).NotTo(HaveOccurred())
			all = append(all, fs...)
		}
		Expect(all).To(HaveLen(20))
	})

	It("pass an observation that meets their expectations", func() {
		for _, fx := range all {
			Expect(oracle.Check(fx, ideal(fx))).To(BeEmpty(), fx.File)
		}
	})

	It("fail an empty observation on every assertion they declare", func() {
		for _, fx := range all {
			got := oracle.Check(fx, &oracle.Observed{})
			Expect(got).NotTo(BeEmpty(), fx.File)
			Expect(got).To(ContainElement(HaveField("Assertion", "expected.status")), fx.File)
			if fx.Expected != nil && fx.Expected.ToolSequence != nil && len(fx.Expected.ToolSequence) > 0 {
				Expect(got).To(ContainElement(HaveField("Assertion", "expected.toolSequence")), fx.File)
			}
		}
	})
})
