package reference

import (
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
)

// FormatFaults are the seams of the project.format extension tool where a
// mutant breaks exactly one PF guarantee.
type FormatFaults struct {
	// WriteWithoutCompare writes a candidate without checking that the
	// file still holds the bytes the formatter read.
	WriteWithoutCompare bool
	// FormatUnselected also formats and writes the other files of the
	// adapter beside the selected ones.
	FormatUnselected bool
	// SuccessOnPartialFailure skips a file its formatter failed on, writes
	// the others and reports the batch as a complete success; a batch
	// whose later write failed is reported as a success too.
	SuccessOnPartialFailure bool
	// RetryMutatingJob runs a call again when its callId already has a
	// job, instead of answering the recorded job.
	RetryMutatingJob bool
	// FormatterWritesInPlace lets the formatter rewrite the file itself
	// (gofmt -w) instead of producing a candidate on stdout.
	FormatterWritesInPlace bool
	// AcceptSymlinkTarget formats the file a symbolic link names.
	AcceptSymlinkTarget bool
	// LostReceiptAsFalse reports stateChanged false when the job record
	// could not be saved after a write, instead of unknown.
	LostReceiptAsFalse bool
	// IgnoreGoFlag runs the Go adapter without project_format_go_v1.
	IgnoreGoFlag bool
	// AcceptCrossRoot formats files of other recipe roots in one call.
	AcceptCrossRoot bool
	// FixedRustEdition runs rustfmt with edition 2021 whatever Cargo.toml
	// says.
	FixedRustEdition bool
	// UnavailableAsNoop answers a formatter that is not installed as a
	// successful no-op instead of a failure.
	UnavailableAsNoop bool
	// RewriteIdentical writes a candidate even when it equals the file.
	RewriteIdentical bool
	// ReportNotDurable keeps the job's terminal report in memory only.
	ReportNotDurable bool
	// FailureWriteEvidence attaches write evidence of the selected files
	// to a failed call.
	FailureWriteEvidence bool
	// TestCountFailures words a formatter failure as a test summary.
	TestCountFailures bool
	// HideFormatTool keeps format_project out of tools/list although the
	// extension was negotiated, so the model is never offered it.
	HideFormatTool bool
}

// listFormatTool adds project.format to a tool set when the extension was
// negotiated (seed: "Expose a model-facing project_format"): its
// definition in canonical-ID order, its routing and its extension effect
// capabilities; the core tools' entries stay as they are.
func (s *session) listFormatTool(ts *port.ToolSet) {
	if s.faults.Format.HideFormatTool || !slices.Contains(s.extensions, catalog.FlagProjectFormat) {
		return
	}
	d := catalog.ProjectFormat()
	caps, _ := effects.ExtensionCapabilities(d.ID)
	ts.CanonicalToolIDs[d.ModelName] = d.ID
	ts.EffectCapabilities[d.ID] = caps
	ts.Definitions = append(ts.Definitions, catalog.ModelDefinition(d))
	slices.SortStableFunc(ts.Definitions, func(a, b port.ToolDefinition) int {
		return strings.Compare(ts.CanonicalToolIDs[a.Function.Name], ts.CanonicalToolIDs[b.Function.Name])
	})
}
