package reference

import (
	"time"

	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/research"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

// ProbeHelperArgs are the arguments that make the host's own binary act as
// the in-sandbox containment probe helper (DECISIONS 64): the binary must
// call command.ProbeHelperMain and exit when started with them.
var ProbeHelperArgs = []string{"host", "containment-probe"}

// Options configure a reference host. The zero value is the conformant
// reference host; every field is optional.
type Options struct {
	// Prober probes command containment. Nil means a Prober of the host's
	// own, started when the host is created, re-executing the host binary
	// with ProbeHelperArgs.
	Prober *command.Prober
	// Now stamps task.checkpoint updates. Nil means the Unix epoch, so
	// that the host's model-visible output is a deterministic function
	// of its inputs (time never crosses the wire).
	Now func() time.Time
	// Git is the git executable; "" means "git" on PATH. When it cannot
	// be found the host does not back git.exec.
	Git string
	// Research configures the public-research adapter behind
	// research.fetch and research.search. Nil means the configuration of
	// the environment (research.ConfigFromEnv): fetch enabled unless
	// CONFORM_RESEARCH=off, search only with CONFORM_RESEARCH_SEARCH_URL,
	// search credentials from CONFORM_RESEARCH_HEADERS.
	Research *research.Config
	// Faults switches on named deviations from the conformant behaviour;
	// the zero value switches none on. Only the mutants use them.
	Faults Faults
}

// Faults are the seams where a mutant may break exactly one guarantee: the
// reference host's own duties (tool executor, stores, trace) directly, and
// the workspace library and the command runner through their own Faults.
// Each field names the deviation; the mutants package names each mutant
// and the guarantee it breaks.
type Faults struct {
	// SkipArgumentValidation runs tools on arguments that fail the input
	// schema.
	SkipArgumentValidation bool
	// SkipOutputValidation returns outputs that fail the output schema as
	// ordinary results instead of unknown outcomes.
	SkipOutputValidation bool
	// ExecuteBeforeApproval dispatches the call first and asks for
	// approval afterwards.
	ExecuteBeforeApproval bool
	// IgnoreIdempotencyKey re-executes a with_key tool whose key was seen.
	IgnoreIdempotencyKey bool
	// ForgeWriteEvidence attests a write of every path a successful
	// workspace mutation names, even when the snapshots do not show it,
	// and skips the check of port hashes against the snapshots.
	ForgeWriteEvidence bool
	// StoreAckWithoutPersist acknowledges store/put without writing.
	StoreAckWithoutPersist bool
	// TraceFlushNotDurable answers trace/flush without syncing, and keeps
	// appended events in memory only.
	TraceFlushNotDurable bool
	// LoseTaskCheckpoint keeps task.checkpoint state in process memory,
	// so a fresh host process does not see it.
	LoseTaskCheckpoint bool
	// MergeCommandStreams reports stderr inside stdout for command.run.
	MergeCommandStreams bool
	// SandboxLabelBestEffort publishes best-effort containment as active
	// and verified.
	SandboxLabelBestEffort bool
	// PublishOtherEnvironment publishes a command environment different
	// from the one commands are spawned from.
	PublishOtherEnvironment bool
	// DiffReviewWhenTruncated attests diffReview for a truncated diff.
	DiffReviewWhenTruncated bool
	// DerivedAsWrite reports changes in derived (dependency and cache)
	// trees as file write evidence whose hash is the metadata fingerprint.
	DerivedAsWrite bool
	// GitPathsAsOptions passes git.exec paths before "--", where git reads
	// them as options.
	GitPathsAsOptions bool
	// FailedResultEffects attaches write evidence of the target to an
	// ok=false result of a workspace mutation.
	FailedResultEffects bool
	// WrongCanonicalToolID answers with the model name where the
	// canonical tool ID belongs.
	WrongCanonicalToolID bool
	// IgnoreMode builds the active tool set as if the task mode were
	// "auto", whatever mode the harness asked for.
	IgnoreMode bool
	// DropSpill discards the spill files of a truncated command output and
	// returns no artifact reference.
	DropSpill bool
	// MaskNonZeroExit reports a command that exited non-zero as exit
	// code 0.
	MaskNonZeroExit bool
	// ValidateWithoutApproval dispatches project.validate on the profile's
	// auto-approval although no verified containment backend is active.
	ValidateWithoutApproval bool
	// ResearchPrivateHosts lets research.fetch reach private, loopback and
	// link-local hosts.
	ResearchPrivateHosts bool
	// FailureAsUnknownOutcome answers every failure a tool returns (a
	// precondition, a missing file) as an unknown-outcome error instead of
	// an ok=false result, so the core stops the batch at an ordinary
	// failure.
	FailureAsUnknownOutcome bool
	// UnknownOutcomeAsFailure answers an adapter failure after dispatch
	// (an unknown side-effect outcome) as an ordinary retryable IO_ERROR
	// result.
	UnknownOutcomeAsFailure bool
	// DropPartialCommandWrites attests no writes for a command that timed
	// out or was canceled after changing the workspace.
	DropPartialCommandWrites bool
	// UntypedEntryWrites attests observed directory, symlink and special
	// entries as regular files hashed by their snapshot fingerprint.
	UntypedEntryWrites bool
	// TimedValidationIDs makes every project.validate validation ID unique
	// with the wall-clock time and the process ID, so two runs of one
	// scenario attest different IDs (item 14).
	TimedValidationIDs bool

	// Workspace are the faults of the workspace library.
	Workspace workspace.Faults
	// Command are the faults of the command runner.
	Command command.Faults
}
