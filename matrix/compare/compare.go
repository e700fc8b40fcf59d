package compare

import (
	"fmt"

	"github.com/galaxy-stack/conform/matrix/replay"
)

// Result is a comparison of several hosts over scenarios.
type Result struct {
	// Hosts name the hosts, in the order given.
	Hosts []string `json:"hosts"`
	// Profile is set when the hosts offered different tools: the hashes
	// are then those of the transcripts restricted to the common tools.
	Profile *Profile `json:"profile,omitempty"`
	// Scenarios are the scenarios compared, in run order.
	Scenarios []Scenario `json:"scenarios"`
	// Mismatches counts the scenarios whose hashes differ; NotCompared
	// those that apply to one host or none.
	Mismatches  int `json:"mismatches"`
	NotCompared int `json:"notCompared"`
	// Note says what the comparison could not show (result documents hold
	// hashes, not transcripts).
	Note string `json:"note,omitempty"`
	// ReproErrors are the repros that could not be written.
	ReproErrors []string `json:"reproErrors,omitempty"`
}

// A Scenario is one scenario's comparison.
type Scenario struct {
	// File is the scenario's file.
	File string `json:"file"`
	// Hashes are the replay hashes, one per host ("" where the scenario did
	// not run or does not apply), and Statuses the final statuses.
	Hashes   []string `json:"hashes"`
	Statuses []string `json:"statuses"`
	// NotApplicable names the hosts the scenario does not apply to (a tool
	// it calls is not backed): they are left out of the comparison.
	NotApplicable []string `json:"notApplicable,omitempty"`
	// Compared is how many hosts the scenario was compared on: those it
	// applies to. Below two nothing was compared.
	Compared int `json:"compared"`
	// Equal is true when every host it applies to has the same hash.
	Equal bool `json:"equal"`
	// Differ are the aspects in which some host differs from the baseline.
	Differ []string `json:"differ,omitempty"`
	// Outliers are, with three or more hosts, the hosts outside the strict
	// majority of equal hashes; NoMajority is set when there is none.
	Outliers   []string `json:"outliers,omitempty"`
	NoMajority bool     `json:"noMajority,omitempty"`
	// Volatile, in a comparison of result documents, lists the workspace
	// paths the scenario makes machine-specific on purpose (golden.Volatile):
	// their hashes differ between machines, so the scenario is not counted
	// as a mismatch.
	Volatile []string `json:"volatile,omitempty"`
	// Repro is the self-contained txtar repro written for a mismatch
	// (Config.ReproDir).
	Repro string `json:"repro,omitempty"`
	// Mismatches are, for every host that differs from the baseline (the
	// first host of the majority, or the first host), where it first
	// differs.
	Mismatches []Mismatch `json:"mismatches,omitempty"`
}

// Transcripts compares the transcripts of each scenario on each host:
// byHost[i][j] is host i's transcript of scenario j (nil where it has
// none), files[j] the scenario's file. When the hosts offered different
// tools, every transcript is first restricted to the tools all of them
// offered.
func Transcripts(hosts []string, files []string, byHost [][]*replay.Transcript) (*Result, error) {
	if len(hosts) < 2 {
		return nil, fmt.Errorf("compare: want two hosts or more, got %d", len(hosts))
	}
	if len(byHost) != len(hosts) {
		return nil, fmt.Errorf("compare: %d hosts but transcripts of %d", len(hosts), len(byHost))
	}
	for i, ts := range byHost {
		if len(ts) != len(files) {
			return nil, fmt.Errorf("compare: host %s has %d transcripts for %d scenarios", hosts[i], len(ts), len(files))
		}
	}
	res := &Result{Hosts: hosts, Scenarios: []Scenario{}, Profile: profile(hosts, byHost)}
	for j, f := range files {
		ts := make([]*replay.Transcript, len(hosts))
		for i := range hosts {
			ts[i] = byHost[i][j]
			if ts[i] != nil && res.Profile != nil {
				ts[i] = restrict(ts[i], res.Profile.Common)
			}
		}
		s := scenario(hosts, f, ts)
		switch {
		case !s.Equal:
			res.Mismatches++
		case s.Compared < 2:
			res.NotCompared++
		}
		res.Scenarios = append(res.Scenarios, s)
	}
	return res, nil
}

// scenario compares one scenario's transcripts, one per host.
func scenario(hosts []string, file string, ts []*replay.Transcript) Scenario {
	s := Scenario{File: file, Hashes: make([]string, len(hosts)), Statuses: make([]string, len(hosts)), Equal: true}
	var in []int // the hosts compared
	for i, t := range ts {
		switch {
		case t == nil:
			s.Statuses[i] = "not run"
			s.NotApplicable = append(s.NotApplicable, hosts[i])
		case t.Final.NotApplicable:
			s.Statuses[i] = "not applicable"
			s.NotApplicable = append(s.NotApplicable, hosts[i])
		default:
			s.Statuses[i] = t.Final.Status
			h, err := t.Hash()
			if err != nil {
				h = "unhashable: " + err.Error()
			}
			s.Hashes[i] = h
			in = append(in, i)
		}
	}
	s.Compared = len(in)
	if len(in) < 2 {
		return s
	}
	base, ok := s.group(hosts, in)
	if ok {
		return s
	}
	seen := map[string]bool{}
	for _, i := range in {
		if s.Hashes[i] == s.Hashes[base] {
			continue
		}
		for _, a := range aspects(ts[base], ts[i]) {
			if !seen[a] {
				seen[a] = true
				s.Differ = append(s.Differ, a)
			}
		}
		if m := mismatch(hosts[base], hosts[i], ts[base], ts[i]); m != nil {
			s.Mismatches = append(s.Mismatches, *m)
		}
	}
	s.Differ = ordered(s.Differ)
	return s
}

// group sets Equal, Outliers and NoMajority from the hashes of the hosts
// in (indexes into hosts), and returns the baseline: the first host of the
// strict majority, or the first host. ok is true when all are equal.
func (s *Scenario) group(hosts []string, in []int) (base int, ok bool) {
	count := map[string]int{}
	for _, i := range in {
		count[s.Hashes[i]]++
	}
	if len(count) <= 1 {
		return 0, true
	}
	s.Equal = false
	base = in[0]
	majority := ""
	for _, i := range in {
		if 2*count[s.Hashes[i]] > len(in) {
			majority, base = s.Hashes[i], i
			break
		}
	}
	if len(in) >= 3 {
		if majority == "" {
			s.NoMajority = true
		} else {
			for _, i := range in {
				if s.Hashes[i] != majority {
					s.Outliers = append(s.Outliers, hosts[i])
				}
			}
		}
	}
	return base, false
}

// ordered puts aspects in the order of the Aspect constants.
func ordered(as []string) []string {
	var out []string
	for _, a := range []string{AspectTools, AspectEffects, AspectEvidence, AspectWorkspace, AspectRun} {
		for _, b := range as {
			if a == b {
				out = append(out, a)
			}
		}
	}
	return out
}
