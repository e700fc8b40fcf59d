package reports

import (
	"encoding/json"
	"fmt"

	"github.com/galaxy-stack/conform/internal/atomicfile"
)

// SchemaVersion is the version of the result document's shape; the JSON
// Schema of that shape is schema/result.schema.json ([Schema]).
const SchemaVersion = "2"

// Document kinds: the command that produced the document.
const (
	KindCertify  = "certify"
	KindRun      = "run"
	KindSelfTest = "selftest"
)

// Item statuses.
const (
	Passed        = "passed"
	Failed        = "failed"
	NotApplicable = "not_applicable"
	Skipped       = "skipped"
)

// Document is the result of one certification run (or one `conform run`
// over fixtures, or one self-test). Fields other than StartedAt and the
// items' DurationMs are comparable across runs: they hold no time, PID or
// temporary path, and every list has a fixed order. [Comparable] drops the
// two that are not.
type Document struct {
	SchemaVersion string `json:"schemaVersion"`
	// Kind is the command that produced the document: certify, run or
	// selftest.
	Kind          string  `json:"kind"`
	Harness       Harness `json:"harness"`
	Host          Host    `json:"host"`
	OS            string  `json:"os"`
	Arch          string  `json:"arch"`
	MatrixVersion string  `json:"matrixVersion"`
	// StartedAt is when the run started (RFC 3339, UTC). Not comparable.
	StartedAt string `json:"startedAt,omitempty"`
	// Interrupted is true when a signal stopped the run: Items then holds
	// what finished, the item running at the signal is skipped with the
	// reason "interrupted", and the items never started are skipped (or
	// absent).
	Interrupted bool    `json:"interrupted,omitempty"`
	Items       []Item  `json:"items"`
	Summary     Summary `json:"summary"`
	// Planned are the IDs of the matrix items the selection covers that
	// this version of conform cannot run yet.
	Planned []int `json:"planned,omitempty"`
	// SelfTest is the kill matrix, in a selftest document.
	SelfTest *SelfTest `json:"selfTest,omitempty"`
}

// Harness identifies the conform build that produced a document.
type Harness struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Commit is the VCS revision conform was built from, and Modified
	// whether its work tree had changes; both come from the build info
	// and are absent when the build recorded none.
	Commit   string `json:"commit,omitempty"`
	Modified bool   `json:"modified,omitempty"`
}

// Host identifies the host under test: how it was started and what it said
// it is.
type Host struct {
	// Command is the --host value as given.
	Command string `json:"command"`
	Mutant  string `json:"mutant,omitempty"`
	Variant string `json:"variant,omitempty"`
	// CoreFault is the named fault of conform's own core that was switched
	// on (conform selftest), if any.
	CoreFault string `json:"coreFault,omitempty"`
	// BinarySHA256 is the SHA-256 ("sha256:<hex>") of the executable the
	// command starts: the host binary, or the interpreter of an
	// interpreter command line.
	BinarySHA256 string `json:"binarySha256,omitempty"`
	// ProgramPath and ProgramSHA256 name and hash the script that is the
	// host when the command runs an interpreter (`python3 host.py`,
	// `node host.mjs`, `sh host.sh`): ProgramPath as written in Command,
	// so documents from different directories compare equal. Both are
	// absent for any other command.
	ProgramPath   string `json:"programPath,omitempty"`
	ProgramSHA256 string `json:"programSha256,omitempty"`
	// Name and Version are what the host's initialize answer says it is.
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
	// Tools are the tools the host advertised, sorted, and ToolProfile
	// the tool profile they make up ("host" or "full_contract").
	Tools       []string `json:"tools,omitempty"`
	ToolProfile string   `json:"toolProfile,omitempty"`
	// Doubles are what the host serves as deterministic doubles.
	Doubles []string `json:"doubles,omitempty"`
	// PromptInput says whose prompt configuration the run requests held:
	// "host" (the host's initialize answer carried a promptInput, merged
	// over conform's defaults) or "defaults" (it carried none).
	PromptInput string `json:"promptInput,omitempty"`
}

// Item is the result of one matrix item, or, in a run document, of one
// fixture (ID 0, Fixture and File set).
type Item struct {
	ID int `json:"id,omitempty"`
	// Ref is how people name the item: "13", or "R1" for an extension
	// item (ID 101).
	Ref   string `json:"ref,omitempty"`
	Name  string `json:"name"`
	Title string `json:"title"`
	Area  string `json:"area"`
	Scope string `json:"scope,omitempty"`
	// Fixture and File name the fixture of a run document's item.
	Fixture string `json:"fixture,omitempty"`
	File    string `json:"file,omitempty"`
	Status  string `json:"status"`
	// DurationMs is how long the item ran. Not comparable.
	DurationMs int64  `json:"durationMs"`
	Reason     string `json:"reason,omitempty"`
	Repro      string `json:"repro,omitempty"`
	// ReplayHash identifies the item's replayable record, where the
	// command that produced the document keeps one.
	ReplayHash string `json:"replayHash,omitempty"`
	// NotApplicable lists the item's scenarios (and specs) that did not
	// apply to the host, each with its reason, sorted by scenario. An
	// item passes only on the scenarios it ran: one some of whose
	// scenarios ran and passed while others did not apply is passed, and
	// lists these; one none of whose scenarios ran is not_applicable.
	NotApplicable []NotApplicableScenario `json:"notApplicable,omitempty"`
	// Expected is set on a failed item that an entry of the expectations
	// file (conform certify --expect) allows to fail: the item stays
	// failed, and the run's verdict does not count it.
	Expected *ExpectedFailure `json:"expected,omitempty"`
	// FailedChecks are the item's checks that failed, in the order they
	// ran: what each enforces and why it failed, so that a failure can be
	// told from collateral damage (conform selftest credits a kill only
	// to an assertion of a sentence the fault breaks).
	FailedChecks []FailedCheck `json:"failedChecks,omitempty"`
}

// A FailedCheck is one failed check of an item.
type FailedCheck struct {
	// Check names it: a scenario file without .json, or a spec's text.
	Check string `json:"check"`
	// Sentences are the keys of the contract sentences the check
	// enforces (conform matrix --json).
	Sentences []string `json:"sentences"`
	// Cause says what failed it: CauseAssertion, CauseSchema, CauseHost,
	// CauseDeadline or CauseHarness.
	Cause string `json:"cause"`
}

// Causes of a failed check.
const (
	// CauseAssertion: one of the check's assertions (or its scenario's
	// expectations) failed on what the host did.
	CauseAssertion = "assertion"
	// CauseSchema: the host sent a message that fails its JSON Schema,
	// which breaks "Validate input and output schemas" (T1) whatever the
	// check enforces.
	CauseSchema = "schema"
	// CauseHost: the host exited, hung up or sent something that is not
	// JSON-RPC; the check saw nothing of what it enforces.
	CauseHost = "host"
	// CauseDeadline: the check's time ran out.
	CauseDeadline = "deadline"
	// CauseHarness: conform could not run the check.
	CauseHarness = "harness"
)

// An ExpectedFailure is the entry of an expectations file that allows an
// item to fail.
type ExpectedFailure struct {
	Reason  string `json:"reason"`
	Owner   string `json:"owner"`
	Expires string `json:"expires"` // the last day allowed, YYYY-MM-DD
	// Message is the substring of the failure the entry is pinned to.
	Message string `json:"message,omitempty"`
	// Source is the entry's file and line, "expect.json:7"; with entries
	// that name checks, each of their lines, comma-separated.
	Source string `json:"source"`
	// Checks are the checks the entries name, when they name checks
	// rather than the whole item.
	Checks []string `json:"checks,omitempty"`
}

// A NotApplicableScenario is one scenario (or spec) of an item that did not
// apply to the host, and why.
type NotApplicableScenario struct {
	Scenario string `json:"scenario"`
	Reason   string `json:"reason"`
}

// Comparable returns a copy of d without the fields that differ between
// two runs of the same host: StartedAt and every item's DurationMs.
func Comparable(d *Document) *Document {
	c := *d
	c.StartedAt = ""
	c.Items = append([]Item(nil), d.Items...)
	for i := range c.Items {
		c.Items[i].DurationMs = 0
	}
	return &c
}

// Summary counts items by status.
type Summary struct {
	Passed        int `json:"passed"`
	Failed        int `json:"failed"`
	NotApplicable int `json:"notApplicable"`
	Skipped       int `json:"skipped"`
	// NotApplicableScenarios counts the scenarios that did not apply to
	// the host, over every item, whatever the item's status: those of a
	// passed item too.
	NotApplicableScenarios int `json:"notApplicableScenarios,omitempty"`
	// ExpectedFailures counts the failed items an expectations file
	// allows to fail; Failed counts them too.
	ExpectedFailures int `json:"expectedFailures,omitempty"`
}

// Unexpected is the number of failed items no expectation allows: the
// failures that fail the run.
func (s Summary) Unexpected() int { return s.Failed - s.ExpectedFailures }

// NotRunReason is the reason given to items a signal kept from running.
const NotRunReason = "not run: the run was interrupted"

// MarkInterrupted marks d as the result of an interrupted run: Interrupted
// is set, and skipped items without a reason (Ginkgo skips the items after
// the signal) get [NotRunReason].
func (d *Document) MarkInterrupted() {
	d.Interrupted = true
	for i := range d.Items {
		if d.Items[i].Status == Skipped && d.Items[i].Reason == "" {
			d.Items[i].Reason = NotRunReason
		}
	}
	d.Tally()
}

// Tally recomputes d.Summary from d.Items.
func (d *Document) Tally() { d.Summary = d.Counts() }

// Counts counts d's items by status. Renderers show these counts, never
// the document's own Summary, which a document read from a file may get
// wrong.
func (d *Document) Counts() Summary {
	var s Summary
	for _, it := range d.Items {
		s.NotApplicableScenarios += len(it.NotApplicable)
		switch it.Status {
		case Passed:
			s.Passed++
		case Failed:
			s.Failed++
			if it.Expected != nil {
				s.ExpectedFailures++
			}
		case NotApplicable:
			s.NotApplicable++
		case Skipped:
			s.Skipped++
		}
	}
	return s
}

// WriteFile writes d as indented JSON to path atomically: it writes a
// temporary file in the same directory and renames it into place, so a
// reader never sees a partial document. A path that exists and is not a
// regular file (a FIFO, a device node) is refused, never replaced.
func WriteFile(path string, d *Document) error {
	b, err := Encode(d)
	if err != nil {
		return err
	}
	return writeAtomic(path, b)
}

// Encode returns the bytes [WriteFile] writes for d: indented JSON and a
// final newline. The same document always encodes to the same bytes.
func Encode(d *Document) ([]byte, error) {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// CheckWritable reports whether a report can be written to path, before
// anything runs: path must be absent or a regular file, and its directory
// must exist and be writable (it creates and removes a temporary file
// there, as [WriteFile] will). The error says which of these fails.
func CheckWritable(path string) error { return atomicfile.Check(path) }

// reportPerm is the permission of a new report file, less the umask.
const reportPerm = 0o644

func writeAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data, reportPerm); err != nil {
		return fmt.Errorf("writing report %q: %w", path, err)
	}
	return nil
}

// WriteJSON writes v as indented JSON to path atomically, as WriteFile
// does; it is for documents other than the result document (selftest's).
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(path, append(b, '\n'))
}
