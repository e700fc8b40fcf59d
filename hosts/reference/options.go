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
	// Choices take decisions the contract leaves to hosts otherwise than
	// the reference host does; the zero value takes none. Only the
	// permitted-variation hosts (package variants) use them.
	Choices Choices
}

// Choices are the host's choices a variant may take otherwise.
type Choices struct {
	// Workspace are the workspace library's choices (detection depth,
	// traversal exclusions).
	Workspace workspace.Choices
	// NoExtensions advertises no extension capability flag, whatever
	// initialize offers: the host keeps exactly the core tools.
	NoExtensions bool
	// HostInstructions supplies, in the prompt input, a trusted workspace
	// instruction of the host's own settings (with that provenance) and a
	// dirty-state summary of its own.
	HostInstructions bool
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
	// ResearchUnlabelledDouble answers research.fetch with a fixed
	// document derived from the URL, as a contract double does, while
	// initialize labels no double.
	ResearchUnlabelledDouble bool
	// ResearchTrustedContent labels fetched content as trusted host
	// content (provenance trust trusted_host, result trust trusted).
	ResearchTrustedContent bool
	// ResearchTruncationUnmarked reports a cut fetch as complete.
	ResearchTruncationUnmarked bool
	// ResearchPageEffects merges the effects a fetched JSON page claims
	// under "effects" into the fetch's effects and, trusting them, skips
	// the host's own effect-profile check of research.fetch.
	ResearchPageEffects bool
	// ResearchDurableCache keeps fetched pages in the store directory and
	// answers a repeated fetch from there, in any later host process,
	// without reading the source again.
	ResearchDurableCache bool

	// research: more ways a host breaks the public-research guarantees.

	// ResearchCannedSearch answers research.search with a fixed hit,
	// without querying the configured endpoint, while initialize labels
	// no double (research.fetch keeps its real adapter).
	ResearchCannedSearch bool
	// ResearchSearchUnapproved applies the approval policy to
	// research.fetch only: research.search runs without asking.
	ResearchSearchUnapproved bool
	// ResearchApproveOnce asks for approval of the first research call of
	// a host process only; later research calls reuse that answer.
	ResearchApproveOnce bool
	// ResearchHitsTrusted marks the output of research.search untrusted
	// but each hit trusted_host, as content of the configured provider.
	ResearchHitsTrusted bool
	// ResearchHitsAttributedToProvider attributes each search hit to the
	// provider ("search:<provider>") instead of the hit's URL.
	ResearchHitsAttributedToProvider bool
	// ResearchSearchInspected attests each search hit's URL as an
	// inspected path, skipping the host's effect-profile check of
	// research.search.
	ResearchSearchInspected bool
	// ResearchSnippetEffects merges the effects a search snippet's JSON
	// claims under "effects" into the search's effects, skipping the
	// host's effect-profile check of research.search.
	ResearchSnippetEffects bool
	// ResearchFetchInspected attests every fetched URL as an inspected
	// path, skipping the host's effect-profile check of research.fetch.
	ResearchFetchInspected bool
	// ResearchUnavailableAsEmpty answers a source that answers an HTTP
	// error status as a successful fetch of empty content.
	ResearchUnavailableAsEmpty bool
	// ResearchMemoryCache keeps fetched pages in process memory and
	// answers a repeated fetch in the same process from there, without
	// reading the source again and without saying so.
	ResearchMemoryCache bool
	// ResearchUndisclosedDouble labels research.fetch a double in
	// initialize and answers it with fixed content whose summary reads
	// like an observed fetch, never saying it is process-local.
	ResearchUndisclosedDouble bool
	// ResearchStaleFallback records every fetched page in the store and,
	// when a later fetch of the same URL fails, in this or any later host
	// process, answers the recorded page as a successful fetch.
	ResearchStaleFallback bool
	// ResearchCheckpointEvidence answers a fetch of a URL that the run's
	// task checkpoint (model-authored progress or decisions) names with
	// that checkpoint text, as a successful fetch, without reading the
	// source.
	ResearchCheckpointEvidence bool

	// Approval outcomes (item 7).

	// ApprovalTimeoutApproves runs a call whose approval request timed
	// out, as if the harness had approved it.
	ApprovalTimeoutApproves bool
	// MissingApproverApproves runs a call that needs approval when the
	// harness has no approver, as if it had approved it.
	MissingApproverApproves bool

	// Shell-sensitive data (item 54).

	// GitThroughShell runs git.exec's git command line through sh -c,
	// joined with spaces, so shell syntax in a path runs.
	GitThroughShell bool
	// GitGlobPathspecs lets git read git.exec paths as glob pathspecs
	// (no GIT_LITERAL_PATHSPECS), so star*.txt also names other files.
	GitGlobPathspecs bool
	// Store, trace and fingerprint faults of items 10, 11, 12, 40, 41.

	// StoreGetNothing answers every store/get with no document.
	StoreGetNothing bool
	// StoreGetOldest answers store/get with the oldest document of a run
	// instead of the latest, so store/get and store/list disagree.
	StoreGetOldest bool
	// TraceNotReloaded answers trace/list with the events this process
	// appended only, so a fresh process on the same store lists nothing of
	// what an earlier one made durable.
	TraceNotReloaded bool
	// FingerprintAlwaysMatches answers every workspace/fingerprint verify
	// with "matches" and the recorded fingerprint, without reading the
	// workspace.
	FingerprintAlwaysMatches bool
	// Store, restore and idempotency faults (items 37, 39, 49, 50).

	// RestoreIgnoresSnapshotHash activates the names of a tools/restore
	// and answers the tool set whatever snapshot hash the checkpoint
	// recorded.
	RestoreIgnoresSnapshotHash bool
	// StoreAliasesDocuments keeps every document this process put in one
	// shared object per kind, which each later put overwrites, and
	// rewrites the stored files from it: earlier documents end up holding
	// the latest one.
	StoreAliasesDocuments bool
	// StoreReordersDocuments answers store/get and store/list with the
	// documents' members re-ordered as a JSONB column returns them
	// (shorter keys first), not in the canonical order they were put in.
	StoreReordersDocuments bool
	// TimedValidationIDs makes every project.validate validation ID unique
	// with the wall-clock time and the process ID, so two runs of one
	// scenario attest different IDs (item 14).
	TimedValidationIDs bool

	// Commands.

	// PublishLoginShell publishes "zsh", a login shell's name, as the
	// command dialect while commands still run in the published
	// executable, /bin/sh.
	PublishLoginShell bool
	// ValidateSkipsContainmentGate runs project.validate's declared scripts
	// through a runner without the containment gate, so required
	// containment refuses run_command alone.
	ValidateSkipsContainmentGate bool
	// Tool executor error semantics, policy and idempotency, and the
	// store and trace (items 8, 10, 14, 29, 37, 39).

	// RetryableFailures marks every ok=false result retryable, whatever
	// its code, as a catch-all error handler that sets retryable: true
	// does.
	RetryableFailures bool
	// UncorrelatedFailures leaves the toolCallId of an ok=false result's
	// content empty, so the model-visible failure names no call.
	UncorrelatedFailures bool
	// WriteBeforePolicy runs workspace writes and edits before applying
	// the mode and approval policy to them (other tools keep the order).
	WriteBeforePolicy bool
	// UnknownOutcomeAsPrecondition answers an adapter failure after
	// dispatch (an unknown side-effect outcome) as an ordinary
	// PRECONDITION_FAILED result that is not retryable.
	UnknownOutcomeAsPrecondition bool
	// IdempotencyInMemory keeps the results of idempotency keys in process
	// memory, so a fresh host process on the same storeDir runs a seen key
	// again.
	IdempotencyInMemory bool
	// OutputValidationReadOnly validates the output of read tools only:
	// a mutating tool's output is answered whatever its output schema says.
	OutputValidationReadOnly bool
	// StoreMergesDocuments merges each store/put into the run's previous
	// document of the same kind (members the new document lacks survive
	// from the old one), as an in-place Object.assign does.
	StoreMergesDocuments bool
	// StoreInWorkspace keeps the store's documents in a directory inside
	// the workspace root instead of the storeDir.
	StoreInWorkspace bool
	// TraceOwnSequence lists trace events numbered by the host (1, 2, …
	// in append order across the run) instead of with the sequence the
	// core appended them with.
	TraceOwnSequence bool
	// UnknownShellEnvironment publishes the shell dialect of its command
	// environment as "unknown" while backing command.run.
	UnknownShellEnvironment bool
	// BalancedApprovalProfile enforces the balanced approval profile
	// whatever profile initialize declares.
	BalancedApprovalProfile bool
	// FailureStateVersion attaches the target's state version to an
	// ok=false result of a workspace mutation, as a host that stamps every
	// result with its state does.
	FailureStateVersion bool
	// UncorrelatedDenialID attests a denial with the call's ID as its
	// approvalRequestId instead of the ID of the approval/request it sent.
	UncorrelatedDenialID bool
	// CopiedEffectProfile answers tools/list with a copy of the effect
	// profile kept in the host, one release old: workspace.write without
	// the state_version capability, instead of the profile the core's own
	// metadata function builds from the active descriptors.
	CopiedEffectProfile bool
	// OutboundWithoutPermission lets its approval policy grant
	// network.outbound whatever the tool profile grants, so research runs
	// under the host profile, which grants no outbound access.
	OutboundWithoutPermission bool
	// DerivedStateUnversioned advances the state version only for durable
	// writes: a call that changed only derived (dependency and cache)
	// trees attests none.
	DerivedStateUnversioned bool
	// TraceFlushAsync keeps appended trace events in a buffer and answers
	// trace/flush at once, writing and syncing the buffer a second later:
	// the acknowledgement comes before the events are durable.
	TraceFlushAsync bool
	// CommandCreatesOnly attests, for a command, only the files it created:
	// files it modified or deleted get no write evidence.
	CommandCreatesOnly bool
	// ValidationStatusFromOutput reads a validation check's status from its
	// output text: a check whose output says "passed" is attested passed,
	// whatever its exit code.
	ValidationStatusFromOutput bool
	// CaseInsensitiveRouting routes a model name whatever its letter case
	// ("Read_File" to workspace.read) instead of answering UNKNOWN_TOOL.
	CaseInsensitiveRouting bool
	// CanonicalIDAsModelName also routes an active tool's canonical ID
	// called as a model name ("workspace.read") to the tool.
	CanonicalIDAsModelName bool
	// IdempotencyKeyOnly keeps idempotency records by key alone, so a
	// second tool called with a key the first used answers the first
	// tool's result.
	IdempotencyKeyOnly bool
	// FailureInspected attests the path a failed call named as inspected,
	// as a host that records what it looked at before the failure does.
	FailureInspected bool

	// Commands and correlation (S000 C5, C10, C11, M3).

	// NoCommandEnvironment publishes no command environment in initialize
	// while backing command.run.
	NoCommandEnvironment bool
	// UnknownPathStyle publishes the path style of its command
	// environment as "unknown" while backing command.run: the rest of the
	// environment is concrete.
	UnknownPathStyle bool
	// UnlistedCommandRun leaves command.run out of initialize's tools and
	// publishes no command environment, while tools/list still activates
	// run_command: the list of backed tools is kept apart from the
	// registry.
	UnlistedCommandRun bool
	// NonZeroExitAsFailure answers a command that exited non-zero as an
	// ok=false IO_ERROR result instead of a structured result with its
	// exit code.
	NonZeroExitAsFailure bool
	// ValidationPassedWhenRan reports a declared check passed once its
	// script ran to its own exit, whatever the exit code: the spawn's
	// success taken for the check's.
	ValidationPassedWhenRan bool
	// CwdAsContainment publishes filesystem writes as contained to the
	// workspace when no containment backend is active, because the host
	// validates every cwd beneath the workspace.
	CwdAsContainment bool
	// CwdRefusalAsContainment answers a cwd that escapes the workspace
	// with the containment refusal (UNAVAILABLE) instead of the cwd
	// refusal (PERMISSION_DENIED).
	CwdRefusalAsContainment bool
	// ApprovalFirstContext sends every approval/request of the session with
	// the requestId and context of the session's first one, as a host that
	// builds the approval context once and caches it does.
	ApprovalFirstContext bool
	// ApprovalKeyAsRequestID builds an approval/request's requestId from
	// the call's idempotency key instead of its call ID.
	ApprovalKeyAsRequestID bool
	// FailureNamesPreviousCall names, in the content of a failed result,
	// the call the host answered before it instead of the call itself.
	FailureNamesPreviousCall bool
	// CancelNamesCall gives up on an approval request (its timeout, or
	// the call's end) with a $/cancelRequest that names the call ID
	// instead of the approval request's JSON-RPC ID.
	CancelNamesCall bool

	// Items 46 and 51 (identical observations; a validation's own writes).
	// ValidationWithoutWrites attests no write for the files a validation
	// script changed, as if project.validate were read-only; the state
	// version still moves.
	ValidationWithoutWrites bool
	// FingerprintCaptureTime binds the wall-clock time of each capture into
	// the workspace fingerprint, so two captures of an unchanged workspace
	// differ.
	FingerprintCaptureTime bool
	// DiffHashCaptureTime binds the wall-clock time of each git diff into
	// its diffReview hash, so two reviews of an unchanged diff differ.
	DiffHashCaptureTime bool
	// Tool executor: effect metadata, evidence and validation scripts
	// (T3, T5, T7–T11).

	// CanonicalIDsFromCatalog answers tools/list with a canonicalToolIds
	// mapping copied from the catalog: every backed tool's model name,
	// active or not, instead of the active descriptors' alone.
	CanonicalIDsFromCatalog bool
	// CapabilitiesOfActiveOnly answers tools/list with the effect
	// capabilities of the active tools alone instead of the whole core
	// profile the core's metadata function builds, so the policy changes
	// when a tool is activated.
	CapabilitiesOfActiveOnly bool
	// ValidationFailsOnOutput reads a validation check's failure from its
	// output text: a check whose output mentions "fail" is attested
	// failed, whatever its exit code.
	ValidationFailsOnOutput bool
	// ValidationSkippedOnOutput reads a skipped check from its output
	// text: a check whose output says npm's "Missing script" is attested
	// not_run, whatever its exit code.
	ValidationSkippedOnOutput bool
	// CommandOutputAsValidation attests a passed validation of the
	// workspace for a run_command that exited 0 and whose output says
	// "passed" or "passing", as a host that takes `npm test` run in the
	// terminal for a validation does; having no evidence check of its own,
	// it answers the result as it built it.
	CommandOutputAsValidation bool
	// MissingHashEmptyString attests the missing side of a created or
	// deleted path with the empty string as its hash instead of null, as a
	// host whose hash field is a plain string does; having no evidence
	// check of its own, it answers the result as it built it.
	MissingHashEmptyString bool
	// DeleteAsEmptyFile attests a path a command deleted as rewritten to
	// an empty file (afterKind file, the hash of no bytes), as a host that
	// reads a missing file as "" does.
	DeleteAsEmptyFile bool
	// FollowSymlinkEvidence types the after side of a write by following a
	// symlink (stat, not lstat): a symlink to a file is attested as that
	// file, with its content hash.
	FollowSymlinkEvidence bool
	// DirectoryListingHash attests a directory side of a write with a
	// hash of the directory's listing instead of null, as a host that
	// hashes every entry it snapshots does; having no evidence check of
	// its own, it answers the result as it built it.
	DirectoryListingHash bool
	// DerivedNestedAsWrite classifies derived trees by the path's first
	// segment only, so changes under a nested dependency tree
	// (app/node_modules) become write evidence hashed by their metadata
	// fingerprint.
	DerivedNestedAsWrite bool
	// DerivedLeafFilesAsWrite classifies derived state by directory names
	// only, so generated files named by their leaf (*.log, *.tsbuildinfo)
	// become write evidence hashed by their metadata fingerprint.
	DerivedLeafFilesAsWrite bool
	// DerivedRootsAsWrite matches derived trees by their contents'
	// prefix ("node_modules/"), so the directory entry of a generated tree
	// itself (node_modules, app/dist) becomes a directory write.
	DerivedRootsAsWrite bool
	// ValidateApprovalRemembered remembers a granted project.validate
	// approval for the rest of the session: later validations run without
	// asking, although each dispatch of repository scripts needs one.
	ValidateApprovalRemembered bool
	// ValidateSubpackageUnapproved asks before running the root package's
	// declared scripts but runs a sub-package's (a path other than ".")
	// without approval or verified containment.
	ValidateSubpackageUnapproved bool

	// Workspace are the faults of the workspace library.
	Workspace workspace.Faults
	// Command are the faults of the command runner.
	Command command.Faults
	// Research are the faults of the public-research adapter.
	Research research.Faults
	// Format are the faults of the project.format extension tool.
	Format FormatFaults
	// Prompt are the faults of the host's prompt input (items 15, 16, 17).
	Prompt PromptFaults
}

// PromptFaults break the host's prompt input, the promptInput of its
// initialize answer (items 15, 16, 17).
type PromptFaults struct {
	// SystemPrompt sends a systemPrompt of the host's own.
	SystemPrompt bool
	// PromptHash sends a promptHash the host computed.
	PromptHash bool
	// PromptVersion sends a promptVersion the host pins.
	PromptVersion bool
	// UnknownKey sends a member outside AiCoderPromptConfiguration
	// ("toolPolicy").
	UnknownKey bool
	// LegacyInstructions sends the legacy free-form workspaceInstructions
	// list instead of trusted instructions with provenance.
	LegacyInstructions bool
	// InvalidDeclaration declares networkAccess "restricted", a value
	// outside the configuration's enumeration.
	InvalidDeclaration bool
	// RepositoryAsTrusted presents the workspace's AGENTS.md as a trusted
	// workspace instruction, with the file as its source.
	RepositoryAsTrusted bool
	// RepositoryInHostInstruction folds the workspace's AGENTS.md into a
	// trusted instruction whose source names the host's settings.
	RepositoryInHostInstruction bool
	// InstructionWithoutProvenance sends a trusted instruction whose source
	// is blank.
	InstructionWithoutProvenance bool
	// DeclareWriteDenied declares writeAccess "denied" and still executes
	// writes.
	DeclareWriteDenied bool
	// DeclareNetworkDenied declares networkAccess "denied" while its
	// command containment leaves the network reachable.
	DeclareNetworkDenied bool
	// DeclareOtherApproval declares an approval profile other than the one
	// initialize set, which it enforces.
	DeclareOtherApproval bool
	// DeclarationsPerProcess declares writeAccess "policy_gated" in a
	// process that opens a store already holding a run, so a fresh host
	// resuming the run declares another policy than the one that started
	// it, with its enforcement unchanged.
	DeclarationsPerProcess bool
}
