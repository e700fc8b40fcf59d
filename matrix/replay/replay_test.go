package replay_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
)

// TestLongContextAudits is the acceptance check of the run report: the
// long-context seed reports twelve checkpoint audits with compaction
// counts 1…12, a model-context audit and a replay hash.
func TestLongContextAudits(t *testing.T) {
	argv, err := builtin.Command("reference")
	if err != nil {
		t.Fatal(err)
	}
	fxs, err := fixture.Load("../fixture/testdata/fixtures/scenarios/long-context-multilanguage.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := lab.Run(context.Background(), fxs[0], lab.Options{Argv: argv}, false)
	if err != nil {
		t.Fatal(err)
	}
	var counts []int64
	for _, a := range rep.CheckpointAudits {
		counts = append(counts, a.CompactionCount)
		if !strings.HasPrefix(a.ContentHash, "sha256:") || a.Reason == "" || a.Unreadable != "" {
			t.Errorf("audit %+v lacks its reason or content hash", a)
		}
	}
	if want := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; !slices.Equal(counts, want) {
		t.Errorf("compaction counts %v, want %v", counts, want)
	}
	if rep.ModelContext == nil || !rep.ModelContext.AllRequestsContainTask || len(rep.ModelContext.ObservedCheckpointHashes) == 0 {
		t.Errorf("model-context audit %+v", rep.ModelContext)
	}
	if rep.TraceFlushes < 1 || len(rep.ModelRequests) != rep.Observed.ModelRequestCount {
		t.Errorf("trace flushes %d, model requests %d of %d", rep.TraceFlushes, len(rep.ModelRequests), rep.Observed.ModelRequestCount)
	}
	tr := replay.Build(rep)
	h, err := tr.Hash()
	if err != nil || !strings.HasPrefix(h, "sha256:") || len(h) != 71 {
		t.Fatalf("hash %q, %v", h, err)
	}
	b, _ := tr.JSON()
	for _, leak := range []string{rep.Observed.Checkpoints[0].ContentHash, "/tmp", "conform-run-", "conform-reference"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("the transcript holds %q", leak)
		}
	}
	back, err := replay.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if h2, _ := back.Hash(); h2 != h {
		t.Errorf("a transcript read back hashes to %s, not %s", h2, h)
	}
	if d := replay.Diverge(tr, back); d != nil {
		t.Errorf("read back: %v", d)
	}
}

func TestDivergeNamesTheFirstEvent(t *testing.T) {
	a := &replay.Transcript{Version: 1, Fixture: "f", Events: []replay.Event{{Kind: "state", Transition: "a->b"}, {Kind: "tool_result", Result: &replay.Result{Name: "read_file", OK: true}}}}
	b := &replay.Transcript{Version: 1, Fixture: "f", Events: []replay.Event{{Kind: "state", Transition: "a->b"}, {Kind: "tool_result", Result: &replay.Result{Name: "read_file"}}}}
	if replay.Diverge(a, a) != nil {
		t.Fatal("a transcript diverges from itself")
	}
	d := replay.Diverge(a, b)
	if d == nil || d.Index != 1 || d.Where != "event 2 (tool_result)" || !strings.Contains(d.Diff, "OK") {
		t.Fatalf("divergence %+v", d)
	}
	b.Events = b.Events[:1]
	if d := replay.Diverge(a, b); d == nil || d.Index != 1 {
		t.Fatalf("a missing event: %+v", d)
	}
	ha, _ := a.Hash()
	hb, _ := b.Hash()
	if ha == hb {
		t.Fatal("different transcripts hash alike")
	}
	c := &replay.Transcript{Version: 1, Fixture: "f", Events: a.Events, Final: replay.Final{Status: "failed"}}
	if d := replay.Diverge(a, c); d == nil || d.Where != "final" {
		t.Fatalf("final: %+v", d)
	}
}

func TestMask(t *testing.T) {
	h1, h2 := "sha256:1", "sha256:2"
	tr := &replay.Transcript{Final: replay.Final{
		Writes:    []replay.Write{{Path: "inode.txt", AfterHash: &h1}, {Path: "kept.txt", AfterHash: &h2}},
		Workspace: []replay.SnapshotEntry{{Path: "inode.txt", Kind: "file", Hash: h1}, {Path: "kept.txt", Kind: "file", Hash: h2}},
	}}
	tr.Mask("inode.txt")
	if *tr.Final.Writes[0].AfterHash != replay.Masked || tr.Final.Workspace[0].Hash != replay.Masked ||
		*tr.Final.Writes[1].AfterHash != h2 || tr.Final.Workspace[1].Hash != h2 {
		t.Fatalf("mask: %+v", tr.Final)
	}
}
