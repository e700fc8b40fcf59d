package matrix

import (
	"errors"
	"fmt"
	"testing"

	"github.com/galaxy-stack/conform/matrix/kit"
	"github.com/galaxy-stack/conform/reports"
	"github.com/onsi/ginkgo/v2/types"
)

// failedSpec is a failed spec of item id named leaf that failed with msg,
// recording scenario as the file whose expectations it failed, if any.
func failedSpec(id int, leaf, msg, scenario string) types.SpecReport {
	r := types.SpecReport{LeafNodeLabels: []string{fmt.Sprintf("item:%d", id)}, LeafNodeText: leaf, State: types.SpecStateFailed, Failure: types.Failure{Message: msg}}
	if scenario != "" {
		r.ReportEntries = types.ReportEntries{
			{Name: kit.ReproEntry, Value: types.WrapEntryValue("conform run " + scenario + " --host h")},
			{Name: kit.ScenarioEntry, Value: types.WrapEntryValue(scenario)},
		}
	}
	return r
}

// TestFailedScenarioGetsRepro checks that a spec that failed its
// scenario's expectations gets a repro written through Config.Repro: the
// item's reason names the file and its run command is the item's repro; a
// Go spec gets none, and a repro that cannot be written is said.
func TestFailedScenarioGetsRepro(t *testing.T) {
	var asked []ReproRequest
	tg := &target{cfg: Config{Host: "h", Mutant: "m"}, items: map[int]*reports.Item{}, host: &kit.Host{Name: "h", Mutant: "m"}}
	tg.cfg.Repro = func(req ReproRequest) (string, error) {
		asked = append(asked, req)
		if req.File == "fixtures/matrix/14-x/broken.json" {
			return "", errors.New("disk full")
		}
		path := "out/" + req.Name + ".txtar"
		same(t, "the command", "conform run "+path+" --host h --mutant m --allow-uncontained-commands", req.Command(path))
		return path, nil
	}
	tg.collect(failedSpec(13, "go-spec", "it broke", ""))
	tg.collect(failedSpec(13, "cwd-escape", "x.json: status completed\n  outside: changed", "fixtures/matrix/13-x/cwd-escape.json"))
	tg.collect(failedSpec(14, "broken", "y.json: status failed", "fixtures/matrix/14-x/broken.json"))

	same(t, "the specs asked for", 2, len(asked))
	same(t, "the first request", ReproRequest{Name: "13-symlink-traversal-cwd-escape", File: "fixtures/matrix/13-x/cwd-escape.json",
		Title:   "matrix item 13 (symlink and path traversal attempts), scenario cwd-escape, failed against the host of the command below.",
		Reasons: []string{"x.json: status completed", "  outside: changed"}},
		ReproRequest{Name: asked[0].Name, File: asked[0].File, Title: asked[0].Title, Reasons: asked[0].Reasons})
	it := tg.items[13]
	same(t, "item 13's reason", "it broke\nx.json: status completed\n  outside: changed\nrepro file: out/13-symlink-traversal-cwd-escape.txtar"+contractNote(registry[13]), it.Reason)
	same(t, "item 13's repro: the Go spec failed first and has no archive", "conform certify --host h --mutant m --only 13", it.Repro)
	broken := tg.items[14]
	same(t, "item 14's reason", "y.json: status failed\nrepro not written: disk full"+contractNote(registry[14]), broken.Reason)
	same(t, "item 14's repro", "conform run fixtures/matrix/14-x/broken.json --host h", broken.Repro)

	tg = &target{items: map[int]*reports.Item{}, host: &kit.Host{Name: "h"}}
	tg.cfg.Repro = func(req ReproRequest) (string, error) { return "r.txtar", nil }
	tg.collect(failedSpec(13, "cwd-escape", "x.json: status completed", "fixtures/matrix/13-x/cwd-escape.json"))
	same(t, "the archive's command is the repro", "conform run r.txtar --host h --allow-uncontained-commands", tg.items[13].Repro)
	same(t, "the reason", "x.json: status completed\nrepro file: r.txtar"+contractNote(registry[13]), tg.items[13].Reason)
}
