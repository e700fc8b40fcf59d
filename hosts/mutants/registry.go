package mutants

import (
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/research"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

// The guarantees of S000 "Required host guarantees" the mutants break.
const (
	gEscapes      = "Reject lexical escapes and symlink escapes."
	gPrecondition = "Enforce write/edit preconditions in the same serialized commit operation."
	gUntouched    = "A rejected mutation leaves the target's bytes and inode untouched (items 21, 32)."
	gUTF8         = "Invalid UTF-8 is rejected by text paths without rewriting bytes (item 32)."
	gBounds       = "Bound traversal, reads, searches, and pagination."
	gFingerprint  = "Implement a full relevant-workspace fingerprint."
	gScan         = "Project discovery reports incomplete scans instead of treating missing evidence as proof of absence (item 27)."
	gSpawn        = "Spawn the published executable directly; do not use an implicit host default such as shell: true."
	gPublish      = "Publish the exact interpreter through the command environment, sourced from the value that spawns."
	gCwd          = "Validate cwd beneath the workspace."
	gTimeout      = "Enforce absolute run deadline and per-call timeout."
	gCancel       = "Propagate cancellation to the child process and supervise cleanup."
	gStreams      = "Bound stdout and stderr independently; preserve complete output only through an artifact/spill port."
	gStdin        = "Commands run with closed stdin and no TTY (item 52)."
	gExit         = "Return non-zero exits as structured command results."
	gContainment  = "A missing or failed containment backend must fail before spawn when containment is required."
	gLabel        = "Best-effort execution must not be labeled sandboxed."
	gSchemas      = "Validate input and output schemas."
	gOutputSchema = "After dispatch starts, propagate output-schema failures as unknown side-effect outcomes."
	gRouting      = "Route model names to stable canonical IDs."
	gProfile      = "Build core canonical IDs and effect capabilities with the core's own metadata function from the active descriptors; do not copy the profile into the host."
	gPolicy       = "Apply task-mode and approval policy before side effects."
	gScripts      = "Treat repository-declared validation scripts as executable code: require explicit approval or a verified containment backend."
	gIdempotency  = "Preserve the core-provided idempotency key for operations that support it."
	gWrites       = "Emit write only after independently capturing exact changed paths and state hashes."
	gDerived      = "Never pass a metadata-only fingerprint for generated dependency state as a file contentHash."
	gFailed       = "A failed structured result may carry only approval=denied and its correlated request ID."
	gGitPaths     = "Git path arguments remain data (item 54)."
	gDiffReview   = "Distinguish truncation or unavailable evidence from successful verification (item 20)."
	gPublicOnly   = "Advertise public research only: fetch public HTTP(S) sources, never private or loopback hosts."
	gStore        = "Checkpoint and final-report persistence acknowledgements are durable (item 40)."
	gTrace        = "Make TracePort.flush durable through the completion boundary."
	gTaskState    = "A fresh host process on the same storeDir sees the task.checkpoint state."
	gStructured   = "Structured failures continue to later independent calls (item 45): an ordinary tool failure is an ok=false result, not an unknown outcome."
	gThrows       = "After dispatch starts, propagate unexpected adapter throws as unknown side-effect outcomes; never convert them into ordinary retryable tool results."
	gPartial      = "Partial command mutations remain explicit when post-capture succeeds (item 29)."
	gEditConflict = "An edit whose oldText matches nothing or more than once is a CONFLICT (item 2)."
	gTyped        = "Directory, symlink and special-entry mutations stay typed through completion, checkpoint and resume verification (item 30)."
	gManifests    = "Project discovery reports malformed manifests instead of treating missing evidence as proof of absence (item 27)."
	gDetectDirs   = "Project detection ignores directory names that resemble manifests or source files (item 33)."
	gExclusions   = "Project detection discloses the host's traversal exclusions (item 33)."
	gApprovalOut  = "Apply approval policy before side effects: a denied, missing or timed-out approval never runs the call (item 7)."
	gContained    = "Report process containment truthfully: a command the host reports contained runs inside the verified backend (item 28)."
	gStoreGet     = "A fresh host process on the same storeDir returns the latest checkpoint through store/get, agreeing with store/list (items 10, 11, 40)."
	gVerify       = "Implement a full relevant-workspace fingerprint and coordinate AI Coder writes with capture/verify boundaries (item 11)."
	gRestore      = "A checkpointed tool set restores only under the snapshot hash it was saved with (items 39, 49, 50)."
	gClone        = "Clone on read/write or otherwise prevent mutable aliasing."
	gAtomic       = "Writes are atomic (temporary file, rename) and checked against the precondition in the same commit (item 2)."
	gHashes       = "Return deterministic SHA-256 content evidence."
	gCreateNull   = "Represent file create as null-before and file delete as null-after."
	gDirKinds     = "For directories, symlinks, and special entries, also emit canonical before/after kinds; a directory transition may have two null content hashes."
	gSorted       = "Seeded checkpoint permutations remain deterministic, sorted, redacted and tamper-evident (item 39): the store returns a checkpoint's canonical bytes."
)

// registry builds the mutants; each sets exactly one fault.
func registry() []Mutant {
	ws := func(f workspace.Faults) reference.Faults { return reference.Faults{Workspace: f} }
	cmd := func(f command.Faults) reference.Faults { return reference.Faults{Command: f} }
	return []Mutant{
		// Workspace.
		{"symlink-escape", gEscapes, "follows a symlink whose target lies outside the workspace root",
			ws(workspace.Faults{FollowSymlinkEscapes: true})},
		{"dotdot-escape", gEscapes, "accepts '..' segments that climb out of the workspace root",
			ws(workspace.Faults{AcceptDotDot: true})},
		{"overwrite-existing", gPrecondition, "ignores must_not_exist and overwrites an existing file",
			ws(workspace.Faults{IgnoreMustNotExist: true})},
		{"replace-inode-on-failure", gUntouched, "rewrites the target (same bytes, new inode) before reporting a failed edit",
			ws(workspace.Faults{ReplaceInodeOnFailure: true})},
		{"lossy-utf8", gUTF8, "decodes invalid UTF-8 lossily in reads and edits instead of rejecting it",
			ws(workspace.Faults{DecodeInvalidUTF8: true})},
		{"ignore-page-limit", gBounds, "answers list_files with a full page whatever limit was asked for",
			ws(workspace.Faults{IgnorePageLimit: true})},
		{"metadata-fingerprint", gFingerprint, "fingerprints files by size and mtime, so a same-size edit goes unnoticed",
			ws(workspace.Faults{MetadataFingerprint: true})},
		{"incomplete-scan-as-complete", gScan, "reports a project scan that hit its depth limit as complete",
			ws(workspace.Faults{IncompleteScanAsComplete: true})},

		// Commands.
		{"other-interpreter", gSpawn, "spawns " + command.OtherInterpreterPath + " while publishing the detected interpreter",
			cmd(command.Faults{OtherInterpreter: true})},
		{"implicit-shell", gSpawn, "re-parses the command through an implicit shell, as spawn with shell: true does",
			cmd(command.Faults{ImplicitShell: true})},
		{"publish-other-environment", gPublish, "publishes /bin/bash as the interpreter while spawning the detected one",
			reference.Faults{PublishOtherEnvironment: true}},
		{"cwd-escape", gCwd, "runs a command in a cwd that a symlink leads out of the workspace",
			cmd(command.Faults{CwdEscape: true})},
		{"ignore-call-timeout", gTimeout, "ignores the per-call timeoutMs of run_command",
			cmd(command.Faults{IgnoreCallTimeout: true})},
		{"ignore-cancellation", gCancel, "lets a command run on after its call was canceled",
			cmd(command.Faults{IgnoreCancellation: true})},
		{"leave-process-group", gCancel, "kills only the interpreter and leaves the rest of its process group running",
			cmd(command.Faults{LeaveProcessGroup: true})},
		{"unbounded-output", gStreams, "returns the whole command output instead of bounding each stream",
			cmd(command.Faults{UnboundedOutput: true})},
		{"merge-command-streams", gStreams, "reports stderr inside stdout",
			reference.Faults{MergeCommandStreams: true}},
		{"drop-spill", gStreams, "discards the complete output of a truncated command and returns no artifact reference",
			reference.Faults{DropSpill: true}},
		{"stdin-open", gStdin, "gives commands an open pipe as stdin instead of a closed one",
			cmd(command.Faults{StdinOpen: true})},
		{"mask-nonzero-exit", gExit, "reports a command that exited non-zero as exit code 0",
			reference.Faults{MaskNonZeroExit: true}},
		{"spawn-without-containment", gContainment, "spawns when containment is required but no verified backend exists",
			cmd(command.Faults{SkipContainmentGate: true})},
		{"sandbox-label-best-effort", gLabel, "labels best-effort containment as active and verified",
			reference.Faults{SandboxLabelBestEffort: true}},

		// Tool executor.
		{"skip-argument-validation", gSchemas, "runs tools on arguments that fail the input schema",
			reference.Faults{SkipArgumentValidation: true}},
		{"skip-output-validation", gOutputSchema, "returns an output that fails the output schema as an ordinary result",
			reference.Faults{SkipOutputValidation: true}},
		{"wrong-canonical-id", gRouting, "answers with the model name where the canonical tool ID belongs",
			reference.Faults{WrongCanonicalToolID: true}},
		{"ignore-mode", gPolicy, "activates write tools in review_only mode",
			reference.Faults{IgnoreMode: true}},
		{"execute-before-approval", gPolicy, "runs the call first and asks for approval afterwards",
			reference.Faults{ExecuteBeforeApproval: true}},
		{"validate-without-approval", gScripts, "runs declared validation scripts without approval or verified containment",
			reference.Faults{ValidateWithoutApproval: true}},
		{"ignore-idempotency-key", gIdempotency, "executes again a call whose idempotency key it has already answered",
			reference.Faults{IgnoreIdempotencyKey: true}},
		{"forge-write-evidence", gWrites, "attests the port's account of a write that the snapshots do not show",
			reference.Faults{ForgeWriteEvidence: true}},
		{"derived-as-write", gDerived, "reports node_modules changes as file writes hashed by metadata fingerprint",
			reference.Faults{DerivedAsWrite: true}},
		{"failed-result-effects", gFailed, "attaches write evidence to a failed mutation result",
			reference.Faults{FailedResultEffects: true}},
		{"git-paths-as-options", gGitPaths, "passes git_operation paths before '--', where git reads them as options",
			reference.Faults{GitPathsAsOptions: true}},
		{"diff-review-when-truncated", gDiffReview, "attests diff review for a truncated git diff",
			reference.Faults{DiffReviewWhenTruncated: true}},

		// Public research.
		{"research-without-outbound", gResearchPermission, "lets research run under a tool profile that grants no network.outbound permission",
			reference.Faults{OutboundWithoutPermission: true}},
		{"research-private-hosts", gPublicOnly, "fetches loopback and private-network URLs with research.fetch",
			reference.Faults{ResearchPrivateHosts: true}},

		// Stores and trace.
		{"store-ack-without-persist", gStore, "acknowledges store/put without writing the document",
			reference.Faults{StoreAckWithoutPersist: true}},
		{"trace-flush-not-durable", gTrace, "answers trace/flush without persisting the appended events",
			reference.Faults{TraceFlushNotDurable: true}},
		{"lose-task-checkpoint", gTaskState, "keeps task.checkpoint state in process memory, lost to a fresh host process",
			reference.Faults{LoseTaskCheckpoint: true}},

		// Batch stop policy.
		{"failure-as-unknown-outcome", gStructured, "answers an ordinary tool failure as an unknown-outcome error",
			reference.Faults{FailureAsUnknownOutcome: true}},
		// Tool executor: unknown outcomes and partial mutations (items 29, 34).
		{"unknown-outcome-as-retryable", gThrows, "answers an adapter failure after dispatch as a retryable IO_ERROR result",
			reference.Faults{UnknownOutcomeAsFailure: true}},
		{"drop-partial-command-writes", gPartial, "attests no writes for a command that timed out after changing files",
			reference.Faults{DropPartialCommandWrites: true}},
		// Workspace, items 2, 27, 30 and 33.
		{"ignore-stale-hash", gPrecondition, "writes and edits an existing file whatever its matches_sha256 hash says",
			ws(workspace.Faults{IgnoreStaleHash: true})},
		{"edit-first-of-ambiguous", gEditConflict, "replaces the first of several oldText matches instead of refusing the edit",
			ws(workspace.Faults{EditFirstOfAmbiguous: true})},
		{"untyped-entries", gTyped, "attests directories, symlinks and FIFOs a command made as regular files with a hash",
			reference.Faults{UntypedEntryWrites: true}},
		{"silent-malformed-manifest", gManifests, "reads a malformed root package.json as one without scripts, with no warning",
			ws(workspace.Faults{SilentMalformedManifest: true})},
		{"manifest-directories", gDetectDirs, "counts directories named like manifests or source files in project detection",
			ws(workspace.Faults{ManifestDirectories: true})},
		{"hide-traversal-exclusions", gExclusions, "leaves the excluded directory names out of project detection's warnings",
			ws(workspace.Faults{HideTraversalExclusions: true})},
		// Workspace bounds, containment, fingerprint and atomic writes (W1–W6).
		{"read-ignores-max-bytes", gBounds, "answers read_file with up to its own default chunk whatever maxBytes was asked for",
			ws(workspace.Faults{IgnoreReadMaxBytes: true})},
		{"read-ignores-end-line", gBounds, "answers read_file to the end of the file whatever endLine was asked for",
			ws(workspace.Faults{IgnoreReadEndLine: true})},
		{"list-cursor-skips", gBounds, "points list_files' nextCursor one entry past the page, so paging skips an entry",
			ws(workspace.Faults{ListCursorSkips: true})},
		{"list-cursor-repeats", gBounds, "points list_files' nextCursor at the page's last entry, so paging repeats it",
			ws(workspace.Faults{ListCursorRepeats: true})},
		{"grep-ignores-limit", gBounds, "answers search_files with every match whatever limit was asked for",
			ws(workspace.Faults{IgnoreSearchLimit: true})},
		{"case-fold-containment", gEscapes, "follows a symlink to a sibling of the root whose name differs from the root's only by letter case",
			ws(workspace.Faults{CaseFoldContainment: true})},
		{"prefix-containment", gEscapes, "follows a symlink to a sibling of the root whose name starts with the root's (a string-prefix check)",
			ws(workspace.Faults{PrefixContainment: true})},
		{"detect-follows-symlinks", gEscapes, "lets detect_project enter symlinked directories that lead outside the workspace",
			ws(workspace.Faults{DetectFollowsSymlinks: true})},
		{"fingerprint-ignores-mode", gFingerprint, "leaves file modes out of the fingerprint, so a mode-only change goes unnoticed",
			ws(workspace.Faults{FingerprintIgnoresMode: true})},
		{"fingerprint-files-only", gFingerprint, "binds only files and symlinks into the fingerprint, so an added empty directory goes unnoticed",
			ws(workspace.Faults{FingerprintFilesOnly: true})},
		{"ignore-active-file-hash", gFingerprint, "captures a fingerprint for an active file whose declared content hash no longer holds",
			ws(workspace.Faults{IgnoreActiveFileHash: true})},
		{"write-in-place", gAtomic, "replaces a file by rewriting it in place (same inode) instead of renaming a temporary file over it",
			ws(workspace.Faults{WriteInPlace: true})},
		{"read-hash-of-range", gHashes, "answers read_file's contentHash as the hash of the returned range, not of the whole file",
			ws(workspace.Faults{ReadHashOfRange: true})},
		{"list-ignores-depth", gBounds, "lists every level below the directory whatever depth list_files asked for",
			ws(workspace.Faults{IgnoreListDepth: true})},
		{"glob-ignores-limit", gBounds, "answers glob_files with every match whatever limit was asked for",
			ws(workspace.Faults{IgnoreGlobLimit: true})},
		{"search-follows-symlinks", gEscapes, "lets search_text enter symlinked directories that lead outside the workspace",
			ws(workspace.Faults{SearchFollowsSymlinks: true})},
		{"fingerprint-skips-dotfiles", gFingerprint, "leaves entries whose names start with '.' out of the fingerprint",
			ws(workspace.Faults{FingerprintSkipsDotfiles: true})},
		{"create-as-replace", gCreateNull, "attests a file write_file created as a replacement of an empty file, with a before hash",
			ws(workspace.Faults{CreateAsReplace: true})},
		{"untyped-created-dirs", gDirKinds, "attests the parent directories write_file created as files with a content hash",
			ws(workspace.Faults{UntypedCreatedDirs: true})},
		{"grep-hash-of-line", gHashes, "answers each search_text match's contentHash as the hash of the line, not of the whole file",
			ws(workspace.Faults{GrepHashOfLine: true})},
		{"create-through-dangling-link", gEscapes, "creates a file through a dangling symlink, wherever its target lies",
			ws(workspace.Faults{CreateThroughDanglingLink: true})},
		{"raw-bytes-mutations", gUTF8, "edits and replaces a file that is not UTF-8 as raw bytes instead of refusing it",
			ws(workspace.Faults{RawBytesMutations: true})},
		// Approval outcomes, item 7.
		{"approval-timeout-approves", gApprovalOut, "runs a call whose approval request timed out, as if it were approved",
			reference.Faults{ApprovalTimeoutApproves: true}},
		{"missing-approver-approves", gApprovalOut, "runs a call that needs approval when the harness has no approver",
			reference.Faults{MissingApproverApproves: true}},
		// Containment, item 28.
		{"bypass-active-containment", gContained, "runs commands outside the verified sandbox while reporting it active",
			cmd(command.Faults{BypassActiveContainment: true})},
		// Shell-sensitive data, item 54.
		{"git-through-shell", gGitPaths, "runs git_operation's git command line through sh -c with the paths unquoted",
			reference.Faults{GitThroughShell: true}},
		{"glob-pathspecs", gGitPaths, "lets git read git_operation paths as glob pathspecs, so star*.txt names other files too",
			reference.Faults{GitGlobPathspecs: true}},
		// Stores, trace and fingerprint, items 10, 11, 12, 40 and 41.
		{"store-get-nothing", gStoreGet, "answers every store/get with no document, though store/list holds them",
			reference.Faults{StoreGetNothing: true}},
		{"store-get-oldest", gStoreGet, "answers store/get with the run's oldest document, so store/get and store/list disagree",
			reference.Faults{StoreGetOldest: true}},
		{"trace-not-reloaded", gTrace, "lists only the trace events its own process appended, so a fresh process reloads nothing",
			reference.Faults{TraceNotReloaded: true}},
		{"fingerprint-always-matches", gVerify, "answers every workspace/fingerprint verify with matches, without reading the workspace",
			reference.Faults{FingerprintAlwaysMatches: true}},
		// Store, restore and idempotency, items 39, 49 and 50.
		{"restore-ignores-snapshot-hash", gRestore, "restores a checkpointed tool set whatever snapshot hash the checkpoint recorded",
			reference.Faults{RestoreIgnoresSnapshotHash: true}},
		{"store-aliases-documents", gClone, "keeps one live object per kind that every later store/put overwrites, earlier documents included",
			reference.Faults{StoreAliasesDocuments: true}},
		{"store-reorders-documents", gSorted, "answers store/get and store/list with members re-ordered as a JSONB column returns them",
			reference.Faults{StoreReordersDocuments: true}},
		// Public research, items R1–R7.
		{"research-unlabelled-double", gResearchAdapter, "answers research.fetch with a fixed contract document while initialize labels no double",
			reference.Faults{ResearchUnlabelledDouble: true}},
		{"research-credential-query", gResearchCredentials, "also sends the search credential as a query parameter of the search request",
			rs(research.Faults{CredentialInQuery: true})},
		{"research-credential-to-source", gResearchCredentials, "sends the search endpoint's credential headers to every fetched source",
			rs(research.Faults{CredentialToSources: true})},
		{"research-unredacted-provider", gResearchCredentials, "leaves a credential the provider echoes in titles, snippets or content unredacted",
			rs(research.Faults{KeepSecrets: true})},
		{"research-unbounded-body", gResearchBounds, "reads a fetched body to its end, however long",
			rs(research.Faults{UnboundedBody: true})},
		{"research-ignore-deadline", gResearchBounds, "lets a fetch outlive the call's timeout, bound only by the adapter's own 30 s limit",
			rs(research.Faults{IgnoreDeadline: true})},
		{"research-invalid-utf8", gResearchBounds, "passes fetched bytes that are not UTF-8 through as content",
			rs(research.Faults{AcceptInvalidUTF8: true})},
		{"research-trusted-content", gResearchUntrusted, "labels fetched content as trusted host content, attributed to the host",
			reference.Faults{ResearchTrustedContent: true}},
		{"research-truncation-unmarked", gResearchTruncation, "reports a fetch cut to its byte limit as complete",
			reference.Faults{ResearchTruncationUnmarked: true}},
		{"research-page-effects", gResearchEffects, "attests the inspection, write, validation and plan effects a fetched JSON page claims",
			reference.Faults{ResearchPageEffects: true}},
		{"research-durable-cache", gResearchScope, "answers a repeated fetch, in any later host process, from a page cache in the store",
			reference.Faults{ResearchDurableCache: true}},
		// research: a guarantee kept on one research path and broken on its
		// neighbour (search beside fetch, a later call beside the first, a
		// failure beside a success).
		{"research-canned-search", gResearchAdapter, "answers research.search with a fixed hit, never querying its endpoint, while labelling no double",
			reference.Faults{ResearchCannedSearch: true}},
		{"research-search-unapproved", gResearchPermission, "asks for approval of research.fetch but runs research.search without asking",
			reference.Faults{ResearchSearchUnapproved: true}},
		{"research-approve-once", gResearchPermission, "asks approval for the first research call of a process only, reusing that answer for later ones",
			reference.Faults{ResearchApproveOnce: true}},
		{"research-hits-trusted", gResearchUntrusted, "marks a search output untrusted but each of its hits trusted_host",
			reference.Faults{ResearchHitsTrusted: true}},
		{"research-hits-unattributed", gResearchUntrusted, "attributes every search hit to the provider instead of the hit's URL",
			reference.Faults{ResearchHitsAttributedToProvider: true}},
		{"research-search-inspected", gResearchEffects, "attests each search hit's URL as an inspected path",
			reference.Faults{ResearchSearchInspected: true}},
		{"research-snippet-effects", gResearchEffects, "attests the effects a search snippet's JSON claims",
			reference.Faults{ResearchSnippetEffects: true}},
		{"research-fetch-inspected", gResearchEffects, "attests every fetched URL as an inspected path",
			reference.Faults{ResearchFetchInspected: true}},
		{"research-unavailable-as-empty", gResearchTruncation, "answers a source that answers an HTTP error as a successful fetch of empty content",
			reference.Faults{ResearchUnavailableAsEmpty: true}},
		{"research-memory-cache", gResearchLocalScope, "answers a repeated fetch in the same process from memory, without reading the source or saying so",
			reference.Faults{ResearchMemoryCache: true}},
		{"research-undisclosed-double", gResearchLocalScope, "labels research.fetch a double but words its fixed answers as observed fetches",
			reference.Faults{ResearchUndisclosedDouble: true}},
		{"research-stale-fallback", gResearchDurable, "answers a failed fetch, in this or a later process, with the page it recorded earlier in the store",
			reference.Faults{ResearchStaleFallback: true}},
		{"research-checkpoint-evidence", gResearchDurable, "answers a fetch of a URL the task checkpoint's prose names with that prose, without reading it",
			reference.Faults{ResearchCheckpointEvidence: true}},
		// Commands, items 6 and 52.
		{"truncate-spill", gStreams, "keeps only the bounded part of a truncated command output in its spill file",
			cmd(command.Faults{TruncateSpill: true})},
		{"terminal-stdin", gStdin, "gives commands a pseudo-terminal as stdin",
			cmd(command.Faults{TerminalStdin: true})},
		// Commands: dialect, process lifetime, deadlines, exits and spills
		// (items 5, 6, 52, 53).
		{"publish-login-shell", gDialect, "publishes zsh, a login shell's name, as the command dialect while /bin/sh runs commands",
			reference.Faults{PublishLoginShell: true}},
		{"term-without-kill", gCancel, "ends a command with SIGTERM only, so a member that ignores it outlives the answer",
			cmd(command.Faults{TermWithoutKill: true})},
		{"timeout-kills-child-only", gTimeout, "kills only the interpreter at the timeout and leaves the rest of its process group running",
			cmd(command.Faults{TimeoutSignalsChildOnly: true})},
		{"ignore-call-deadline", gTimeout, "bounds a command by its own timeoutMs only, ignoring the deadline of the call",
			cmd(command.Faults{IgnoreCallDeadline: true})},
		{"signal-exit-zero", gExit, "reports a command ended by a signal as exit code 0",
			cmd(command.Faults{SignalExitZero: true})},
		{"merge-spill", gStreams, "spills both streams of a truncated command into one file, interleaved as they arrive",
			cmd(command.Faults{MergeSpill: true})},
		{"unbounded-stderr", gStreams, "bounds stdout but returns the whole of a huge stderr",
			cmd(command.Faults{UnboundedStderr: true})},
		{"spill-stdout-only", gStreams, "keeps a spill file for stdout alone, so a truncated stderr has no complete copy",
			cmd(command.Faults{SpillStdoutOnly: true})},
		{"spawn-login-shell", gSpawn, "spawns the user's login shell ($SHELL) while publishing /bin/sh",
			cmd(command.Faults{SpawnLoginShell: true})},
		{"cwd-prefix-check", gCwd, "takes a cwd whose real path only starts with the root's, such as <root>-sibling, as inside",
			cmd(command.Faults{CwdPrefixCheck: true})},
		{"validate-skips-containment-gate", gContainment, "gates run_command on required containment but runs declared validation scripts ungated",
			reference.Faults{ValidateSkipsContainmentGate: true}},
		{"cwd-lexical-only", gCwd, "refuses '..' in a cwd but follows a workspace symlink out of the workspace",
			cmd(command.Faults{CwdLexicalOnly: true})},
		// Replay determinism, item 14.
		{"timed-validation-ids", gReplay, "makes project.validate validation IDs unique with the wall-clock time and the process ID",
			reference.Faults{TimedValidationIDs: true}},
		// Tool executor error semantics and policy; store and trace
		// (items 7, 8, 10, 14, 29, 34, 37, 39).
		{"non-retryable-as-retryable", gRetryable, "marks every failed result retryable, whatever its code",
			reference.Faults{RetryableFailures: true}},
		{"failure-without-call-id", gCorrelated, "names no call in the content of a failed result",
			reference.Faults{UncorrelatedFailures: true}},
		{"write-before-policy", gPolicy, "runs workspace writes and edits before applying the mode and approval policy to them",
			reference.Faults{WriteBeforePolicy: true}},
		{"unknown-outcome-as-precondition", gThrows, "answers an adapter failure after dispatch as an ordinary PRECONDITION_FAILED result",
			reference.Faults{UnknownOutcomeAsPrecondition: true}},
		{"idempotency-in-memory", gIdempotency, "keeps idempotency records in process memory, so a fresh host process runs a seen key again",
			reference.Faults{IdempotencyInMemory: true}},
		{"output-validation-read-only", gOutputSchema, "validates the output schema of read tools only",
			reference.Faults{OutputValidationReadOnly: true}},
		{"store-merges-documents", gClone, "merges each store/put into the run's previous document, so members the new one lacks survive",
			reference.Faults{StoreMergesDocuments: true}},
		{"store-in-workspace", gStoreOutside, "keeps the checkpoint store in a directory inside the workspace root",
			reference.Faults{StoreInWorkspace: true}},
		{"trace-own-sequence", gCorrelated, "lists trace events renumbered 1, 2, … instead of with the sequence they were appended with",
			reference.Faults{TraceOwnSequence: true}},
		{"unknown-shell-environment", gConcreteEnvironment, "publishes its command environment's shell dialect as unknown while backing command.run",
			reference.Faults{UnknownShellEnvironment: true}},
		{"balanced-whatever-declared", gDeclared, "enforces the balanced approval profile whatever profile initialize (and so the prompt) declares",
			reference.Faults{BalancedApprovalProfile: true}},
		{"failure-state-version", gFailed, "attaches the target's state version to a failed mutation result",
			reference.Faults{FailureStateVersion: true}},
		{"uncorrelated-denial-id", gDenialID, "attests a denial with the call's ID as approvalRequestId, not the ID of the request it sent",
			reference.Faults{UncorrelatedDenialID: true}},
		{"derived-state-unversioned", gDerivedVersion, "advances state_version only for durable writes, not for a call that changed only derived trees",
			reference.Faults{DerivedStateUnversioned: true}},
		{"trace-flush-before-durable", gTrace, "answers trace/flush at once and writes the buffered events a second later",
			reference.Faults{TraceFlushAsync: true}},
		{"command-creates-only", gWrites, "attests only the files a command created, not those it modified or deleted",
			reference.Faults{CommandCreatesOnly: true}},
		// Items 46 and 51: identical observations; a validation's own writes.
		{"validation-without-writes", gWrites, "attests no write for the files a validation script changed, as if validation were read-only",
			reference.Faults{ValidationWithoutWrites: true}},
		{"fingerprint-capture-time", gFingerprint, "binds the capture time into the workspace fingerprint, so two captures of one workspace differ",
			reference.Faults{FingerprintCaptureTime: true}},
		{"diff-hash-capture-time", gHashes, "binds the time of each git diff into its diffReview hash, so two reviews of one diff differ",
			reference.Faults{DiffHashCaptureTime: true}},
		{"validation-status-from-output", gOutputText, "attests a validation check passed when its output says \"passed\", whatever its exit code",
			reference.Faults{ValidationStatusFromOutput: true}},
		{"copied-effect-profile", gProfile, "answers tools/list with a stale copy of the effect profile (workspace.write without state_version)",
			reference.Faults{CopiedEffectProfile: true}},
		{"case-insensitive-routing", gRouting, "routes a model name in any letter case (Read_File) instead of answering UNKNOWN_TOOL",
			reference.Faults{CaseInsensitiveRouting: true}},
		{"canonical-id-as-model-name", gRouting, "routes an active tool's canonical ID called as a model name (workspace.read) to the tool",
			reference.Faults{CanonicalIDAsModelName: true}},
		{"idempotency-key-only", gIdempotency, "keeps idempotency records by key alone: another tool called with a seen key gets the first's result",
			reference.Faults{IdempotencyKeyOnly: true}},
		{"failure-inspected", gFailed, "attests the path a failed call named as inspected",
			reference.Faults{FailureInspected: true}},
		// Project format, PF01–PF16.
		{"format-write-without-compare", gFormatGuard, "writes a formatter candidate without checking the file still holds the bytes the formatter read",
			pf(reference.FormatFaults{WriteWithoutCompare: true})},
		{"format-unselected-files", gFormatSelected, "also formats the recipe root's files the call did not select",
			pf(reference.FormatFaults{FormatUnselected: true})},
		{"format-success-on-partial-failure", gFormatPartial, "skips a file its formatter failed on, writes the others and reports success",
			pf(reference.FormatFaults{SuccessOnPartialFailure: true})},
		{"format-retry-mutating-job", gFormatReplay, "runs a callId again instead of answering its recorded job",
			pf(reference.FormatFaults{RetryMutatingJob: true})},
		{"format-in-place", gFormatStdin, "lets gofmt rewrite the file itself (-w) and reports no change",
			pf(reference.FormatFaults{FormatterWritesInPlace: true})},
		{"format-symlink-target", gFormatTargets, "formats the file a symbolic link names",
			pf(reference.FormatFaults{AcceptSymlinkTarget: true})},
		{"format-lost-receipt-false", gFormatReceipt, "reports a job without its terminal receipt as stateChanged false",
			pf(reference.FormatFaults{LostReceiptAsFalse: true})},
		{"format-ignore-go-flag", gFormatGate, "runs the Go adapter without project_format_go_v1",
			pf(reference.FormatFaults{IgnoreGoFlag: true})},
		{"format-cross-root", gFormatRoot, "formats files of several recipe roots in one call",
			pf(reference.FormatFaults{AcceptCrossRoot: true})},
		{"format-fixed-edition", gFormatEdition, "runs rustfmt with edition 2021 whatever Cargo.toml says",
			pf(reference.FormatFaults{FixedRustEdition: true})},
		{"format-unavailable-as-noop", gFormatNoInstall, "answers a formatter that is not installed as a successful no-op",
			pf(reference.FormatFaults{UnavailableAsNoop: true})},
		{"format-rewrite-identical", gFormatNoop, "rewrites a file whose candidate equals it",
			pf(reference.FormatFaults{RewriteIdentical: true})},
		{"format-report-not-durable", gFormatDurable, "keeps the job's terminal report in process memory only",
			pf(reference.FormatFaults{ReportNotDurable: true})},
		{"format-failure-write-evidence", gFormatEvidence, "attaches write evidence of the selected files to a failed call",
			pf(reference.FormatFaults{FailureWriteEvidence: true})},
		{"format-test-counts", gFormatKind, "words a formatter failure as a test summary",
			pf(reference.FormatFaults{TestCountFailures: true})},
		{"format-hidden-from-model", gFormatCore, "keeps format_project out of tools/list when the extension is negotiated, so the model never sees it",
			pf(reference.FormatFaults{HideFormatTool: true})},
		// Commands and correlation (C4, C5, C10, C11, M3).
		{"spawn-own-prefix", gInterpreterValue, "spawns the published interpreter with an argument prefix of its own (-e -c) while publishing -c",
			cmd(command.Faults{OwnArgumentsPrefix: true})},
		{"spawn-by-name", gInterpreterValue, "spawns the interpreter by bare name, looked up on PATH at spawn, while publishing its absolute path",
			cmd(command.Faults{SpawnByName: true})},
		{"interpreter-from-call-env", gInterpreterValue, "spawns the shell that SHELL in a call's env names instead of the published interpreter",
			cmd(command.Faults{InterpreterFromCallEnv: true})},
		{"no-command-environment", gConcreteEnvironment, "publishes no command environment while backing command.run",
			reference.Faults{NoCommandEnvironment: true}},
		{"unlisted-command-run", gConcreteEnvironment, "activates run_command in tools/list but leaves command.run out of initialize, with no environment",
			reference.Faults{UnlistedCommandRun: true}},
		{"unknown-path-style", gConcreteEnvironment, "publishes its command environment's path style as unknown while backing command.run",
			reference.Faults{UnknownPathStyle: true}},
		{"nonzero-exit-as-failure", gExit, "answers a command that exited non-zero as an ok=false IO_ERROR result instead of a structured result",
			reference.Faults{NonZeroExitAsFailure: true}},
		{"validation-passed-when-ran", gExit, "reports a declared check passed once its script ran, whatever its exit code",
			reference.Faults{ValidationPassedWhenRan: true}},
		{"cwd-as-containment", gContainedApart, "reports filesystem writes contained to the workspace with no backend, because every cwd is validated",
			reference.Faults{CwdAsContainment: true}},
		{"cwd-refusal-as-containment", gContainedApart, "answers a cwd that escapes the workspace with the containment refusal UNAVAILABLE",
			reference.Faults{CwdRefusalAsContainment: true}},
		{"approval-first-context", gCallCorrelation, "sends every approval/request with the requestId and context of the session's first one",
			reference.Faults{ApprovalFirstContext: true}},
		{"approval-key-as-request-id", gCallCorrelation, "builds approval/request requestIds from the idempotency key instead of the call ID",
			reference.Faults{ApprovalKeyAsRequestID: true}},
		{"cancel-names-call", gCallCorrelation, "gives up on an approval request with a $/cancelRequest naming the call ID, not the request's",
			reference.Faults{CancelNamesCall: true}},
		{"failure-names-previous-call", gCallCorrelation, "names the call it answered before in the content of a failed result",
			reference.Faults{FailureNamesPreviousCall: true}},
		// Prompt input (items 15, 16, 17).
		{"prompt-system-prompt", gPromptOwned, "sends a systemPrompt of its own in its prompt input",
			pr(reference.PromptFaults{SystemPrompt: true})},
		{"prompt-hash", gPromptOwned, "sends a promptHash it computed in its prompt input",
			pr(reference.PromptFaults{PromptHash: true})},
		{"prompt-version", gPromptOwned, "pins a promptVersion in its prompt input",
			pr(reference.PromptFaults{PromptVersion: true})},
		{"prompt-unknown-key", gPromptFields, "sends a member outside the structured prompt configuration (toolPolicy)",
			pr(reference.PromptFaults{UnknownKey: true})},
		{"prompt-legacy-instructions", gPromptFields, "sends the legacy free-form workspaceInstructions list",
			pr(reference.PromptFaults{LegacyInstructions: true})},
		{"prompt-invalid-declaration", gPromptFields, "declares networkAccess restricted, a value the configuration does not have",
			pr(reference.PromptFaults{InvalidDeclaration: true})},
		{"prompt-repository-as-trusted", gPromptTrust, "presents the workspace's AGENTS.md as a trusted instruction",
			pr(reference.PromptFaults{RepositoryAsTrusted: true})},
		{"prompt-repository-in-host-instruction", gPromptTrust, "folds the workspace's AGENTS.md into a trusted instruction attributed to its settings",
			pr(reference.PromptFaults{RepositoryInHostInstruction: true})},
		{"prompt-instruction-without-provenance", gPromptTrust, "sends a trusted instruction with a blank source",
			pr(reference.PromptFaults{InstructionWithoutProvenance: true})},
		{"declare-write-denied", gDeclared, "declares writeAccess denied and still executes writes",
			pr(reference.PromptFaults{DeclareWriteDenied: true})},
		{"declare-network-denied", gDeclared, "declares networkAccess denied while its command containment leaves the network reachable",
			pr(reference.PromptFaults{DeclareNetworkDenied: true})},
		{"declare-other-approval", gDeclared, "declares another approval profile than the one initialize set, which it enforces",
			pr(reference.PromptFaults{DeclareOtherApproval: true})},
		{"declarations-per-process", gDeclared, "declares another write policy in a fresh process resuming a run, its enforcement unchanged",
			pr(reference.PromptFaults{DeclarationsPerProcess: true})},
		// Tool executor: effect metadata, evidence and validation scripts
		// (T3, T5, T7–T11).
		{"canonical-ids-from-catalog", gProfile, "maps every backed tool of the catalog in tools/list's canonicalToolIds, active or not",
			reference.Faults{CanonicalIDsFromCatalog: true}},
		{"capabilities-of-active-only", gProfile, "declares the effect capabilities of the active tools only, not the whole core profile",
			reference.Faults{CapabilitiesOfActiveOnly: true}},
		{"validation-fails-on-output", gOutputText, "attests a validation check failed when its output mentions \"fail\", whatever its exit code",
			reference.Faults{ValidationFailsOnOutput: true}},
		{"validation-skipped-on-output", gOutputText, "attests a validation check not_run when its output says \"Missing script\", whatever its exit code",
			reference.Faults{ValidationSkippedOnOutput: true}},
		{"command-output-as-validation", gOutputText, "attests a passed validation for a run_command whose output says \"passed\"",
			reference.Faults{CommandOutputAsValidation: true}},
		{"missing-hash-empty-string", gCreateNull, "attests the missing side of a create or delete with the hash \"\" instead of null",
			reference.Faults{MissingHashEmptyString: true}},
		{"delete-as-empty-file", gCreateNull, "attests a file a command deleted as rewritten to an empty file",
			reference.Faults{DeleteAsEmptyFile: true}},
		{"symlink-followed-in-evidence", gDirKinds, "types a symlink a call made by following it, as the file it points to with that file's hash",
			reference.Faults{FollowSymlinkEvidence: true}},
		{"directory-listing-hash", gDirKinds, "attests a directory side of a write with a hash of its listing instead of null",
			reference.Faults{DirectoryListingHash: true}},
		{"derived-nested-as-write", gDerived, "treats only root-level dependency trees as derived, so app/node_modules files become writes",
			reference.Faults{DerivedNestedAsWrite: true}},
		{"derived-leaf-files-as-write", gDerived, "treats only generated directories as derived: *.log files become writes hashed by metadata",
			reference.Faults{DerivedLeafFilesAsWrite: true}},
		{"derived-roots-as-write", gDerivedVersion, "matches derived trees by the prefix node_modules/, so the directory node_modules becomes a write",
			reference.Faults{DerivedRootsAsWrite: true}},
		{"validate-approval-remembered", gScripts, "asks before the first validation only and runs later ones on the remembered grant",
			reference.Faults{ValidateApprovalRemembered: true}},
		{"validate-subpackage-unapproved", gScripts, "asks before running the root package's scripts but runs a sub-package's unasked",
			reference.Faults{ValidateSubpackageUnapproved: true}},
	}
}

// The prompt-input guarantees the prompt mutants break (S000 "Prompt
// input").
const (
	gPromptFields = "Supply only the structured AiCoderPromptConfiguration fields."
	gPromptOwned  = "Never assemble or pass systemPrompt, promptHash, or promptVersion."
	gPromptTrust  = "Resolve trusted workspace instructions and provenance before starting the run; repository/tool text remains untrusted unless explicitly promoted."
)

// pr makes reference faults from prompt-input faults.
func pr(f reference.PromptFaults) reference.Faults { return reference.Faults{Prompt: f} }

// The public-research guarantees the research mutants break (S000
// "Public research").
const (
	gResearchAdapter     = "Advertise research.search and research.fetch only with an actual adapter or an explicitly labeled deterministic contract-double profile."
	gResearchCredentials = "Keep provider credentials in host request headers, never tool arguments, query strings, source content, checkpoints or diagnostic reports."
	gResearchBounds      = "Bound transport bodies, execution time, UTF-8 content and serialized output against both byte and calibrated token limits while preserving valid JSON."
	gResearchUntrusted   = "Attribute sources and mark external content untrusted."
	gResearchTruncation  = "Distinguish truncation or unavailable evidence from successful verification."
	gResearchPermission  = "review_only may use the canonical research tools; outbound permission and external-side-effect approval still apply to every call."
	gResearchEffects     = "A fetched source or search snippet cannot grant workspace inspection, write, validation or plan effects."
	gResearchScope       = "If source evidence is process-local, disclose that scope; do not reconstruct durable research success."
	// research: the two halves of gResearchScope, for mutants that break
	// one of them.
	gResearchLocalScope = "If source evidence is process-local, disclose that scope."
	gResearchDurable    = "Do not reconstruct durable research success from model-authored checkpoint prose."
)

// The project-format guarantees the format mutants break (seed "Bounded
// project formatting lifecycle", PF01–PF16).
const (
	gFormatGuard     = "Compare each selected file with the bytes the formatter read immediately before a guarded write; a change between plan and write is a conflict (PF09)."
	gFormatSelected  = "Guarded writes commit only the selected files (PF08)."
	gFormatPartial   = "A formatter failure or partial batch never claims known full completion (PF10)."
	gFormatReplay    = "A mutating job is never retried or redispatched; unknown cannot authorize replay (PF01, PF11)."
	gFormatStdin     = "Formatters read stdin and write candidates to stdout, never editing project files; a change is reported stateChanged true (PF08, PF16)."
	gFormatTargets   = "Symlink and non-regular file targets are refused without writing (PF04)."
	gFormatReceipt   = "A job whose terminal receipt is missing is unknown, never false (PF11, PF12)."
	gFormatGate      = "The Go adapter, explicit or inferred, requires project_format_go_v1 as well as project_format_v1, and is rejected without dispatch otherwise (PF02)."
	gFormatRoot      = "Files of another recipe root than the nearest one fail closed (PF03)."
	gFormatEdition   = "rustfmt runs with the edition of the bounded local Cargo.toml (PF05)."
	gFormatNoInstall = "A missing Ruff fails closed, with no fallback (PF06)."
	gFormatNoop      = "An identical candidate is a no-op without a write (PF07)."
	gFormatDurable   = "The durable terminal report and the synchronous result retain the same mutation truth (PF12)."
	gFormatEvidence  = "A failed format call attests no write (PF13)."
	gFormatKind      = "A format failure names its exact kind, with no test counts or validation summary (PF14)."
	gFormatCore      = "Existing tools stay unchanged: offering the extension leaves the core tool set as it was (PF15)."
)

// pf makes reference faults from project.format faults.
func pf(f reference.FormatFaults) reference.Faults { return reference.Faults{Format: f} }

// rs makes reference faults from research adapter faults.
func rs(f research.Faults) reference.Faults { return reference.Faults{Research: f} }

// gDialect is the command guarantee the dialect mutants break (S000
// "Commands": C1, C3).
const gDialect = "Publish the shell dialect of the interpreter that runs commands, never the name of a login shell that does not run them."

// gReplay is the guarantee of item 14 the replay mutants break.
const gReplay = "Two isolated runs of the same scenario give the same replay hash: IDs and effects carry no time, process ID or absolute path (item 14)."

// The guarantees the tool-executor error-semantics and store mutants break.
const (
	gRetryable    = "Never convert failures into ordinary retryable tool results: only IO_ERROR and UNAVAILABLE failures are retryable (CONTRACTS tool error codes)."
	gCorrelated   = "Correlate run, task, execution, event, tool-call, and sequence IDs."
	gStoreOutside = "Keep checkpoints outside model/workspace-controlled storage."
	// gConcreteEnvironment is C5's host side: the value it speaks of is the
	// host's published command environment.
	gDeclared            = "Keep approval, network, and write declarations consistent with the actual policy enforced by the host."
	gDenialID            = "A failed structured result may carry only approval=denied and its correlated request ID: the ID of the approval/request it answers."
	gDerivedVersion      = "Report such observations as bounded derived mutations and advance state_version."
	gOutputText          = "Never derive trusted effects by parsing model-visible output text."
	gConcreteEnvironment = "If command.run is active, its command environment is concrete: core preparation fails before the first model request when it is absent or unknown."
)

// The guarantees the commands and correlation mutants break (S000
// "Commands" C4, C11 and "Model" M3 as a host sees it).
const (
	gInterpreterValue = "Keep interpreter selection and prompt metadata sourced from the same immutable value: every command spawns the published executable with the published argument prefix."
	gContainedApart   = "Report process containment separately from workspace cwd validation."
	gCallCorrelation  = "Follow the ordered streaming protocol and correlation IDs: every approval request and failure names the call it is about."
)
