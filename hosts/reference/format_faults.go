package reference

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
}
