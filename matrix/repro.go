package matrix

import (
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/matrix/kit"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/onsi/ginkgo/v2/types"
)

// A ReproRequest asks for the self-contained repro of one scenario spec
// that failed its scenario's own expectations (Config.Repro).
type ReproRequest struct {
	// Name names the repro: the item's reference and name and the
	// scenario, not yet made a file name.
	Name string
	// File is the scenario's repository path, fixtures/matrix/NN-name/x.json.
	File string
	// Title says what failed; Reasons are the lines of the failure.
	Title   string
	Reasons []string
	// Command returns the command that runs the repro written at path
	// against the host under test.
	Command func(path string) string
}

// scenarioRepro asks cfg.Repro for the repro of the failed spec r of item
// id, when the spec failed a scenario's own expectations (a Go spec, or a
// scenario that failed only an item's own assertions, gets none: conform
// run checks the scenario's expectations alone). It returns reason with a
// "repro file:" line, or a "repro not written:" one, and the command that
// runs the repro ("" when none was written).
func (t *target) scenarioRepro(id int, r types.SpecReport, reason string) (string, string) {
	file := specScenario(r)
	if t.cfg.Repro == nil || file == "" {
		return reason, ""
	}
	meta := registry[id]
	// conform's own scenarios send their commands to the host uncontained;
	// the repro is a stranger's file to conform run.
	command := func(path string) string { return t.host.RunRepro(path) + " " + lab.AllowUncontainedFlag }
	req := ReproRequest{
		Name:    fmt.Sprintf("%s-%s-%s", RefOf(id), meta.Name, r.LeafNodeText),
		File:    file,
		Title:   fmt.Sprintf("matrix item %s (%s), scenario %s, failed against the host of the command below.", RefOf(id), meta.Title, r.LeafNodeText),
		Reasons: strings.Split(reason, "\n"),
		Command: command,
	}
	path, err := t.cfg.Repro(req)
	if err != nil {
		return strings.TrimSpace(reason + "\nrepro not written: " + err.Error()), ""
	}
	return strings.TrimSpace(reason + "\nrepro file: " + path), command(path)
}

// specScenario returns the scenario file whose expectations r failed, or "".
func specScenario(r types.SpecReport) string {
	for _, e := range r.ReportEntries {
		if e.Name == kit.ScenarioEntry {
			return e.StringRepresentation()
		}
	}
	return ""
}
