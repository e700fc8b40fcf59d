package kit

import (
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	. "github.com/onsi/ginkgo/v2"
)

// SentenceLabel prefixes the Ginkgo label that ties a spec to a contract
// sentence it enforces: "sentence:W5". The runner reads these labels off a
// failed spec, so that a failure names the sentences it stands for.
const SentenceLabel = "sentence:"

// A Case is what an item declares for one of its scenario files: the keys
// of the contract sentences the scenario enforces (matrix.Sentences), and
// the item's own assertions on its outcome beyond the oracle's, if any.
type Case struct {
	Sentences []string
	Check     Check
	// watch, when set, probes the workspace at the moment the host
	// answers one call (see AtAnswer).
	watch *answerWatch
}

// AtAnswer adds to the case a probe run at the moment the host answers the
// call callID, while the session is still open and before the harness
// reads the answer: a guarantee about that moment (a canceled command's
// processes are gone when its result arrives) is observed then, not after
// the run. A finding fails the spec under the case's sentences.
func (c Case) AtAnswer(callID string, probe AnswerProbe) Case {
	c.watch = &answerWatch{callID: callID, probe: probe}
	return c
}

// On declares a scenario's case: the space-separated keys of the sentences
// it enforces, and its check (nil when the oracle's expectations are the
// whole check).
func On(sentences string, chk Check) Case {
	return Case{Sentences: strings.Fields(sentences), Check: chk}
}

// A Spec is one spec an item declares: its name (a scenario file without
// .json, or the text of a Go spec), the sentences it enforces and where it
// is declared.
type Spec struct {
	Item      int      `json:"-"`
	Name      string   `json:"name"`
	Sentences []string `json:"sentences"`
	// Source is the repository path and line of the declaration.
	Source string `json:"source"`
}

// It declares one spec of the item: name, the space-separated keys of the
// contract sentences its assertions enforce, and its body. Item code
// declares every spec through It (or Scenarios), never through Ginkgo's It,
// so that `conform matrix --json` can list each check with its sentences
// without running it.
func (c *TestContext) It(name, sentences string, body func()) {
	keys := strings.Fields(sentences)
	c.bench.declare(Spec{Item: c.ID, Name: name, Sentences: keys, Source: declaredAt()})
	if c.bench.listing {
		return
	}
	labels := make(Labels, 0, len(keys))
	for _, k := range keys {
		labels = append(labels, SentenceLabel+k)
	}
	It(name, labels, body)
}

// declaredAt is the repository path and line of the first caller outside
// this package.
func declaredAt() string {
	for skip := 2; skip < 12; skip++ {
		_, file, line, ok := runtime.Caller(skip)
		if !ok {
			break
		}
		file = filepath.ToSlash(file)
		if path.Base(path.Dir(file)) == "kit" {
			continue
		}
		if i := strings.LastIndex(file, "/matrix/"); i >= 0 {
			file = file[i+1:]
		}
		return fmt.Sprintf("%s:%d", file, line)
	}
	return ""
}

// SentencesOf returns the sentence keys among a spec's Ginkgo labels.
func SentencesOf(labels []string) []string {
	var keys []string
	for _, l := range labels {
		if k, ok := strings.CutPrefix(l, SentenceLabel); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// CauseEntry is the report entry in which a failing spec says what failed
// it, when that is not one of its own assertions (reports.CauseHost,
// CauseSchema, CauseDeadline or CauseHarness); a failed spec without one
// failed on an assertion, unless its message says the host broke.
const CauseEntry = "conform-cause"

// FailedBy records cause as what fails the running spec; call it just
// before Fail.
func FailedBy(cause string) { AddReportEntry(CauseEntry, cause) }
