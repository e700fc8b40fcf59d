package selftest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/reports"
)

// attribute fills fr's kill matrix row from doc, the certification of
// the fault against its targets: an item kills the fault when one of its
// checks failed on an assertion of a sentence the fault breaks (a
// message that fails its schema breaks T1, whatever the check); any
// other failure is collateral.
func (fr *FaultResult) attribute(doc *reports.Document) {
	for _, it := range doc.Items {
		if it.Status != reports.Failed {
			continue
		}
		fr.FailedItems = append(fr.FailedItems, it.ID)
		if why, killed := attributed(it.FailedChecks, fr.Sentences); killed {
			fr.KilledBy = append(fr.KilledBy, it.ID)
		} else {
			fr.Collateral = append(fr.Collateral, reports.CollateralItem{Item: it.ID, Why: why})
		}
	}
	switch {
	case len(fr.KilledBy) > 0:
		fr.Status = Killed
	case len(fr.FailedItems) > 0:
		fr.Status = Collateral
	default:
		fr.Status = Survived
		if why, ok := untestableHere(doc, fr.Sentences); ok {
			fr.Status, fr.Error = Untestable, why
		}
	}
}

// untestableHere reports whether a check of doc's items that enforces one
// of the sentences breaks was not applicable where doc was made, and says
// which with what would make it run: a fault that survived while a check
// that could see it did not run is untestable here, not a survivor.
func untestableHere(doc *reports.Document, breaks []string) (string, bool) {
	var reasons []string
	for _, it := range doc.Items {
		for _, c := range matrix.Checks(it.ID) {
			if !slices.ContainsFunc(c.Sentences, func(k string) bool { return slices.Contains(breaks, k) }) {
				continue
			}
			reason := ""
			if i := slices.IndexFunc(it.NotApplicable, func(na reports.NotApplicableScenario) bool { return na.Scenario == c.Name }); i >= 0 {
				reason = it.NotApplicable[i].Reason
			} else if it.Status == reports.NotApplicable {
				reason = it.Reason
			}
			if reason != "" {
				reasons = appendNew(reasons, fmt.Sprintf("item %s, %s: %s", matrix.RefOf(it.ID), c.Name, firstLine(reason)))
			}
		}
	}
	if len(reasons) == 0 {
		return "", false
	}
	why := "untestable here: a check that could see it was not applicable (" + strings.Join(reasons, "; ") + ")"
	if strings.Contains(why, "containment") {
		why += "; install bubblewrap (apt-get install bubblewrap) so that the reference host verifies a containment backend"
	}
	return why, true
}

// attributed reports whether one of checks failed on an assertion of a
// sentence in breaks, and otherwise says what failed them.
func attributed(checks []reports.FailedCheck, breaks []string) (string, bool) {
	var causes, seen []string
	for _, c := range checks {
		switch c.Cause {
		case reports.CauseAssertion:
			for _, k := range c.Sentences {
				if slices.Contains(breaks, k) {
					return "", true
				}
			}
			for _, k := range c.Sentences {
				if !slices.Contains(seen, k) {
					seen = append(seen, k)
				}
			}
		case reports.CauseSchema:
			if slices.Contains(breaks, schemaSentence) {
				return "", true
			}
			causes = appendNew(causes, "a schema break ("+schemaSentence+")")
		default:
			causes = appendNew(causes, c.Cause)
		}
	}
	if len(seen) > 0 {
		causes = append(causes, "checks of "+strings.Join(seen, ", "))
	}
	if len(causes) == 0 {
		return "no failed check recorded", false
	}
	return strings.Join(causes, "; "), false
}

// schemaSentence is the guarantee a message that fails its schema breaks:
// "Validate input and output schemas."
const schemaSentence = "T1"

func appendNew(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// collateralText lists collateral failures: "item 1: host; item 13: deadline".
func collateralText(cs []reports.CollateralItem) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("item %s: %s", matrix.RefOf(c.Item), c.Why)
	}
	return strings.Join(parts, "; ")
}

// controlTargets are the items the controls are certified against: the
// first item, whose scenarios every host serves.
func controlTargets() []int { return []int{1} }

// controls returns the control hosts as faults that break no sentence.
func controls() []Fault {
	var out []Fault
	for _, name := range builtin.Controls() {
		out = append(out, Fault{Name: name, Kind: KindControl, Description: controlDescription(name),
			Breaks: "no guarantee: a control that fails as a host", Sentences: []string{}, Targets: controlTargets()})
	}
	return out
}

func controlDescription(name string) string {
	switch name {
	case builtin.ControlCrash:
		return "exits on every tool/execute call"
	case builtin.ControlHang:
		return "answers initialize and nothing after it"
	}
	return "answers every tool/execute call with a line that is not JSON-RPC"
}

// controlProblems says what is wrong with a control's row: a control must
// fail its targets, and only collaterally.
func controlProblems(fr FaultResult) []string {
	switch fr.Status {
	case Killed:
		return []string{fmt.Sprintf("control %s is credited a kill by items %s: the kill rule counts a failure that saw no broken guarantee", fr.Name, joinRefs(fr.KilledBy))}
	case Survived:
		return []string{fmt.Sprintf("control %s fails none of items %s: a host that %s must fail them", fr.Name, joinRefs(fr.Ran), fr.Description)}
	case Broken:
		return []string{fmt.Sprintf("control %s could not be certified: %s", fr.Name, fr.Error)}
	}
	return nil
}
