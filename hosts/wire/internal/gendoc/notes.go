package main

// The facts of each tool that the catalog does not hold: what its output
// fields mean, which effects a host attests, its error codes and what the
// host may choose. They are stated from the reference host's behaviour
// (hosts/reference) and the doubles (hosts/doubles); the generator puts them
// beside the catalog's own values on each tool's page.

// A field is one member of a tool's output and what it means.
type field struct{ Name, Meaning string }

// An attest says when a host attests one effects member for a tool:
// Rule is "must", "may" or "never".
type attest struct{ Field, Rule, When string }

// An errCase is one tool error code and when it applies.
type errCase struct{ Code, When string }

// notes are the hand-stated facts of one tool.
type notes struct {
	// Backing says which built-in host serves the tool.
	Backing string
	Content []field
	Effects []attest
	Errors  []errCase
	// Choices are what the host decides; Required are rules that are not
	// the host's choice, each naming the matrix item that checks it or
	// saying that no runnable item does yet.
	Choices, Required []string
	// Timeout adds to the catalog's timeoutMs.
	Timeout string
}

const (
	backedReference = "the reference host (a real adapter)"
	backedDoubles   = "the `doubles` host only, as a deterministic double (`doubles` in its initialize answer); the reference host alone does not back it"
)

// approvalAttest is the approval effect every tool's successful result
// carries on the reference host.
var approvalAttest = attest{"approval", "must", "on every result: `not_required` when the policy auto-approved, `granted` after an approved `approval/request`, `denied` (with `approvalRequestId` when a request was made) on a refused call"}

// inspectAttest is the inspect evidence of a read tool.
func inspectAttest(when string) attest { return attest{"inspectedPaths", "must", when} }

var stateVersionOnChange = attest{"stateVersion", "must", "when the workspace changed (a write or only derived mutations): the `sha256:` version of the after-state snapshot; absent when nothing changed"}

var writesFromSnapshots = attest{"writes", "must", "one typed entry per changed durable path, taken from the diff of the host's own before/after snapshots (never from the command's text); derived trees (`node_modules`, caches, `*.log`, …) are reported in `derivedMutations`, never here"}

var toolNotes = map[string]notes{
	"catalog.search": {
		Backing: "the reference host and the doubles host (the doubles host's own search knows the nine doubles)",
		Content: []field{
			{"matches", "the page of catalog tools that match, best first: `{id, modelName, title, category, active}`; a tool matches when at least one whitespace-separated, lower-cased query term is a substring of its ID, model name, title, description or category (every tool when the query is empty), ranked by the number of terms it contains, ties by canonical ID; `category` filters exactly"},
			{"activated", "the **canonical IDs** (not model names) this call activated, in match order; a match that was already active is not repeated here"},
			{"nextCursor", "`offset:N` when more matches follow; pass it back as `cursor`"},
			{"catalogHash", "the `sha256:` hash of the filtered catalog (mode, permissions, backed tools)"},
			{"activeHash", "the `sha256:` hash of the active definitions after this call; equal to `stateVersion`"},
		},
		Effects:  []attest{approvalAttest, {"stateVersion", "must", "the new `activeHash`: the version of the active tool set"}},
		Errors:   []errCase{{"(none)", "an unknown query or category is an empty page, not an error; a cursor that is not `offset:N` reads from the start"}},
		Choices:  []string{"The page size without `limit` is 5; larger limits are capped at 20."},
		Required: []string{"Activated tools become callable on the next model turn, and `snapshotHash` of `tools/list` changes with them (matrix item 16)."},
	},
	"task.checkpoint": {
		Backing: backedReference,
		Content: []field{
			{"action", "the action performed: `read` or `update`"},
			{"checkpointId", "the run's checkpoint ID (the reference host uses the `runId`)"},
			{"updated", "true for `update`"},
			{"checkpoint", "the stored state `{goal, progress, decisions, nextStep, updatedAt}`"},
		},
		Effects: []attest{approvalAttest,
			{"plan", "must", "`{completed, inProgress, pending, decisions}` mapped from the state: `completed` = `[progress]` when progress is not blank (else `[]`), `inProgress` = `nextStep` (`null` when blank), `pending` = `[]`, `decisions` = the stored decisions (omitted when empty)"},
			{"nextAction", "must", "the stored `nextStep` when it is not blank"},
			{"stateVersion", "must", "`sha256:` + SHA-256 of the state's canonical JSON (JCS): equal states have equal versions; it moves exactly when the stored state changes"},
		},
		Errors: []errCase{{"INVALID_TOOL_ARGUMENTS", "a missing or unknown `action`"}},
		Choices: []string{
			"`updatedAt` comes from the host's clock; the reference host's clock is fixed at the Unix epoch (`1970-01-01T00:00:00Z`) so that its output is a function of its inputs. The harness never compares it with real time.",
		},
		Required: []string{
			"State is per run (`context.runId`) and durable in `storeDir`, so a fresh host process reads it back (no runnable item checks it yet; the mutant `lose-task-checkpoint` breaks it).",
			"`read` needs no earlier `update`: with no state it creates and saves the default `{goal: \"Task <taskId>\", progress: \"\", decisions: [], nextStep: \"Inspect the workspace.\"}` (no runnable item checks it yet).",
			"`update` is partial: `goal`, `progress` and `nextStep` keep their stored values when omitted; `decisions` is replaced (an omitted list becomes `[]`, as the worked example shows); a blank goal becomes `Task <taskId>` (no runnable item checks it yet).",
		},
	},
	"workspace.list": {
		Backing: backedReference,
		Content: []field{
			{"entries", "`{path, name, kind}` of the entries below `path`, depth first with children in UTF-16 order of their names, down to `depth` (default 1, at most 4); `path` is workspace-relative, `kind` one of `file`, `directory`, `symlink`, `other`; symlinks are listed, not followed"},
			{"truncated", "true when more entries follow (`limit`, default 200)"},
			{"nextCursor", "present when `truncated`; pass it back as `cursor`"},
		},
		Effects: []attest{approvalAttest, inspectAttest("`[path]`, the requested directory as given (`.` for the root)")},
		Errors: []errCase{
			{"NOT_FOUND", "`path` does not exist"},
			{"INVALID_INPUT", "`path` is not a directory; an invalid or foreign cursor"},
			{"PERMISSION_DENIED", "`path` escapes the workspace, lexically or through a symlink"},
		},
	},
	"workspace.glob": {
		Backing: backedReference,
		Content: []field{
			{"matches", "workspace-relative paths matching `pattern` below `path`, sorted; `kind` filters `file` or `directory` (`any`, the default, keeps both)"},
			{"truncated", "true when more matches follow"},
			{"nextCursor", "present when `truncated`"},
		},
		Effects: []attest{approvalAttest, inspectAttest("`[path]`, or `[\".\"]` without `path`")},
		Errors: []errCase{
			{"INVALID_INPUT", "a pattern longer than the host's limit; an invalid cursor"},
			{"NOT_FOUND", "`path` does not exist"},
			{"PERMISSION_DENIED", "`path` escapes the workspace"},
		},
		Choices: []string{"The glob dialect is the host's: the reference host matches whole workspace-relative paths, case-insensitively, with `**/` (any prefix ending in `/`), `**` (any characters), `*` (a run without `/`) and `?` (one character but `/`); braces and brackets are literal."},
	},
	"workspace.grep": {
		Backing: backedReference,
		Content: []field{
			{"matches", "`{path, line, column, preview, contentHash}` per matching line; `line` and `column` are 1-based, `preview` the line's text, `contentHash` the file's bare lowercase SHA-256"},
			{"truncated", "true when more matches follow"},
			{"provenance", "`{source, trust: \"untrusted_workspace\"}`: workspace text is data, never instructions"},
			{"nextCursor", "present when `truncated`"},
		},
		Effects: []attest{approvalAttest, inspectAttest("the distinct paths of the matches, in match order; omitted when nothing matched")},
		Errors: []errCase{
			{"INVALID_INPUT", "`regex: true` with a query that does not compile; an over-long glob; an invalid cursor"},
			{"LIMIT_EXCEEDED", "a searched line longer than the host's line limit"},
			{"NOT_FOUND", "`path` does not exist"},
			{"PERMISSION_DENIED", "`path` escapes the workspace"},
		},
		Choices: []string{
			"The regular-expression dialect of `regex: true` is the host's choice: the reference host uses Go's RE2 (no lookaround, no backreferences). Without `regex` the query is literal text.",
			"Case sensitivity without `caseSensitive` is the host's choice: the reference host is case-sensitive.",
			"A file that is not valid UTF-8 is skipped, not an error.",
		},
	},
	"workspace.read": {
		Backing: backedReference,
		Content: []field{
			{"path", "the workspace-relative path read"},
			{"content", "the text of the range; lines keep their line endings"},
			{"contentHash", "bare lowercase SHA-256 of the **whole file** (not of the range): the value a later `matches_sha256` precondition takes"},
			{"startLine", "first line returned (1-based)"},
			{"endLine", "`startLine` plus the number of line breaks returned: a one-line file ending in a newline reads as lines 1 to 2"},
			{"truncated", "true when the range did not fit `maxBytes` (default 131072, the host's limit)"},
			{"provenance", "`{source, trust: \"untrusted_workspace\", contentHash}`"},
			{"nextCursor", "present when `truncated`: continues the same range"},
		},
		Effects: []attest{approvalAttest, inspectAttest("`[path]` as requested")},
		Errors: []errCase{
			{"INVALID_INPUT", "the file is not valid UTF-8 (`Workspace text operation requires valid UTF-8`, matrix item 32); `path` is a directory or other non-regular file (`readText requires a regular file.`); an invalid line range or cursor"},
			{"NOT_FOUND", "`path` does not exist"},
			{"LIMIT_EXCEEDED", "the file is larger than the host's text limit"},
			{"CONFLICT", "the file changed after the cursor was issued"},
			{"PERMISSION_DENIED", "`path` escapes the workspace, lexically or through a symlink (matrix item 13)"},
		},
	},
	"workspace.edit": {
		Backing: backedReference,
		Content: []field{
			{"path", "the workspace-relative path as requested"},
			{"resolvedPath", "where the host wrote; its form is the host's choice (the reference host gives the absolute real path); the harness never compares it"},
			{"beforeContentSha256", "bare lowercase SHA-256 before the edit"},
			{"afterContentSha256", "bare lowercase SHA-256 after the edit"},
			{"replacements", "how many occurrences were replaced (1 unless `replaceAll`)"},
			{"derivedMutations", "`{count, paths, truncated}` of changes under generated trees seen by the snapshots; omitted when none"},
		},
		Effects: []attest{approvalAttest, writesFromSnapshots, {"stateVersion", "must", "the `sha256:` version of the workspace after the edit"}},
		Errors: []errCase{
			{"CONFLICT", "`oldText` matches nothing (`Patch target was not found. …`) or, without `replaceAll`, more than once (`Patch target is ambiguous. …`)"},
			{"PRECONDITION_FAILED", "a `matches_sha256` precondition that does not hold (the message gives the current hash)"},
			{"INVALID_INPUT", "empty `oldText`; `newText` equal to `oldText`; a non-UTF-8 file; a non-regular target"},
			{"NOT_FOUND", "`path` does not exist"},
			{"PERMISSION_DENIED", "`path` escapes the workspace or is a symlink"},
		},
		Required: []string{
			"A failed edit changes nothing: same bytes, same inode (matrix items 2, 21).",
			"Precondition and write are one serialized commit (matrix item 2).",
		},
	},
	"workspace.write": {
		Backing: backedReference,
		Content: []field{
			{"path", "the workspace-relative path as requested"},
			{"resolvedPath", "where the host wrote; its form is the host's choice (the reference host gives the absolute real path); the harness never compares it"},
			{"beforeContentSha256", "bare lowercase SHA-256 of the replaced content; omitted on create"},
			{"afterContentSha256", "bare lowercase SHA-256 of the written content"},
			{"length", "the content's length in UTF-16 code units, as JavaScript counts it"},
			{"derivedMutations", "changes under generated trees; omitted when none"},
		},
		Effects: []attest{approvalAttest, writesFromSnapshots, {"stateVersion", "must", "the `sha256:` version of the workspace after the write"}},
		Errors: []errCase{
			{"PRECONDITION_FAILED", "`must_not_exist` and the target exists; `matches_sha256` and the target is missing or its hash differs"},
			{"CONFLICT", "the write would not change the content"},
			{"INVALID_INPUT", "a parent that is not a directory; an unknown precondition kind"},
			{"PERMISSION_DENIED", "`path` escapes the workspace, is the root, or the write would follow a symlink"},
			{"LIMIT_EXCEEDED", "content over the host's text limit"},
		},
		Required: []string{"Writes are atomic (temporary file, rename) and checked against the precondition in the same commit (matrix item 2)."},
	},
	"command.run": {
		Backing: backedReference,
		Content: []field{
			{"command", "the command as given"},
			{"cwd", "the workspace-relative working directory (`.` by default)"},
			{"exitCode", "the exit status; a non-zero exit is an `ok: true` result (matrix item 6)"},
			{"stdout", "standard output, bounded on its own"},
			{"stderr", "standard error, bounded on its own, never merged into stdout"},
			{"timedOut", "true when the command hit its timeout and was killed with its process group; still `ok: true`"},
			{"cancelled", "true when the call was cancelled"},
			{"truncated", "true when either stream was cut; the complete copy is in a spill file named by the envelope's `artifactRef`"},
			{"derivedMutations", "changes under generated trees; omitted when none"},
		},
		Effects: []attest{approvalAttest,
			{"writes", "may", "only from the snapshots' diff, when the command changed durable files; never from its output"},
			stateVersionOnChange,
		},
		Errors: []errCase{
			{"UNAVAILABLE", "containment is `required` and no backend is verified (or `forbidContainmentBackends`): `Required command containment is unavailable (<backend>/<state>): <reason>`, before anything is spawned"},
			{"INVALID_INPUT", "a command too long or with a NUL byte; a `cwd` that is not a directory; an invalid `env` entry"},
			{"PERMISSION_DENIED", "`cwd` escapes the workspace"},
			{"DEADLINE_EXCEEDED", "the call's deadline passed before the command could start"},
		},
		Timeout: "The command's own limit is `timeoutMs` of the arguments (default 120000 ms) and the call's `timeoutMs` (the deadline) applies too; whichever comes first kills the process group.",
		Choices: []string{
			"The interpreter, as long as it is the one published in `commandEnvironment`: the reference host runs `/bin/sh -c <command>` on POSIX, with stdin closed, no TTY, in a process group of its own.",
			"The spill reference's form is the host's (the reference host uses `conform-spill://<files>`).",
			"How a stream is cut (a head, a tail, or a head and a tail around a marker of at most 1024 bytes; the reference host keeps a head) and the size it keeps.",
			"One spill file per stream or one for both, framed as the host likes, so long as a file holds each complete stream as one piece (or as a string of a JSON file); the reference host writes one file per stream.",
		},
		Required: []string{
			"A cancelled call terminates the command's whole process group before the host answers (matrix item 5).",
			"stdout and stderr are bounded independently and the complete output is kept in a spill file (seed: \"Bound stdout and stderr independently; preserve complete output only through an artifact/spill port\"; matrix item 6).",
			"The published `commandEnvironment` is exactly the interpreter that spawns commands (matrix item 52), and commands are written in its dialect: POSIX `sh` or Windows `cmd` (matrix item 53).",
			"The command text reaches the interpreter as one argument, unexpanded by the host, and git paths go after `--`: shell-sensitive text and path arguments stay data (matrix item 54).",
		},
	},
	"project.detect": {
		Backing: backedReference,
		Content: []field{
			{"projectRoot", "the workspace-relative root detected (`.` for the workspace)"},
			{"languages", "sorted language names by file extension, spelled `C`, `C++`, `C#`, `Dart`, `Go`, `Java`, `JavaScript`, `Kotlin`, `PHP`, `Python`, `Ruby`, `Rust`, `Swift`, `TypeScript`, `Vue`"},
			{"manifests", "workspace-relative paths of the manifest files found (`package.json`, `Cargo.toml`, `pyproject.toml`, `go.mod`, …), sorted"},
			{"commands", "declared scripts by name, as written in the manifest; never guessed"},
			{"scan", "`{complete, entriesScanned, deepestDepth, maxDepth}`: `complete` is false when a limit stopped the scan, so absence is not proof; `maxDepth` declares the host's depth limit"},
			{"warnings", "what limited the scan and what it found malformed, in the host's words, naming the excluded directories and the malformed manifests"},
			{"packageManager", "`pnpm`, `yarn` or `bun` from their lock files, else `npm` for a `package.json`; omitted when there is none"},
		},
		Effects: []attest{approvalAttest, inspectAttest("`[path]` (`.` without `path`)")},
		Errors: []errCase{
			{"NOT_FOUND", "`path` does not exist"},
			{"INVALID_INPUT", "`path` is not a directory"},
			{"PERMISSION_DENIED", "`path` escapes the workspace"},
		},
		Choices: []string{
			"The depth limit, declared as `scan.maxDepth` (the seed: \"Bound traversal\"; the reference host: 20).",
			"Further excluded directories beyond the four below (the reference host: none), and the words of every warning.",
		},
		Required: []string{
			"Generated and dependency trees (`node_modules`, `dist`, `coverage`, `.git`) are excluded from the scan (matrix item 33); every directory the host's traversal excludes is named in `warnings` (seed item 33: \"discloses host traversal exclusions\"; matrix item 33).",
			"An incomplete scan says so: `complete: false` and a warning (seed item 27: \"reports incomplete scans and malformed manifests instead of treating missing evidence as proof of absence\"); a malformed root `package.json` is named in `warnings` (matrix item 27).",
		},
	},
	"project.validate": {
		Backing: backedReference,
		Content: []field{
			{"cancelled", "true when a check was cancelled"},
			{"passed", "true when every requested check passed or was skipped"},
			{"results", "one `{check, status, summary, command, exitCode}` per requested check, in request order, duplicates removed; `status` is `passed`, `failed`, `timed_out`, `cancelled` or `skipped` (no such script declared)"},
			{"derivedMutations", "changes under generated trees; omitted when none"},
		},
		Effects: []attest{approvalAttest,
			{"validations", "must", "one entry per check: `id` = `project.validate:<check>:<path>` with the normalised validated path (`.` for the root); `detail` = `<check>: <summary>`; `scope` = `workspace` for `.`, else `paths` with `paths: [path]`; `status` = `passed`, `not_run` (skipped) or `failed` (failed, timed out, cancelled)"},
			{"writes", "may", "when the checks changed durable files, from the snapshots"},
			stateVersionOnChange,
		},
		Errors:   []errCase{{"INVALID_TOOL_ARGUMENTS", "an empty or unknown `checks` entry"}},
		Timeout:  "`timeoutMs` of the arguments bounds each check; a check at the limit is `timed_out`, not an error.",
		Required: []string{"Declared scripts are executable code: without a verified containment backend the call needs approval whatever the approval profile (matrix item 3, `unapproved-validation.json`; the worked example shows the `approval/request`)."},
	},
	"git.exec": {
		Backing: backedReference,
		Content: []field{
			{"action", "`status` (`git status --short`), `diff` or `log` (`git log --oneline --no-decorate -n <limit>`, default 50)"},
			{"stdout", "for `diff`: the sections `[working-tree]` (`git diff`), `[staged]` (`git diff --cached`) and one `[untracked]` section per untracked file (`git diff --no-index /dev/null <file>`, at most 256 files), each present only when non-empty, joined by a blank line"},
			{"stderr", "git's diagnostics"},
			{"exitCode", "0 on success"},
			{"truncated", "true when any part was cut to `maxOutputBytes`; a truncated diff carries no `diffReview`"},
		},
		Effects: []attest{approvalAttest,
			inspectAttest("the `paths` argument, or `[\".\"]`"),
			{"diffReview", "must", "for a complete, untruncated `diff` only: `{diffHash}`, the bare lowercase hex SHA-256 (no `sha256:` prefix) of the compact JSON `{\"action\":\"diff\",\"paths\":[…],\"stdout\":\"…\"}` (paths as given, `[]` when none); never for `status`, `log` or a truncated diff (matrix item 20)"},
		},
		Errors: []errCase{
			{"GIT_COMMAND_FAILED", "git exited non-zero (e.g. the workspace is not a repository); the message is git's stderr"},
			{"INVALID_TOOL_ARGUMENTS", "an absolute path or a `..` segment in `paths` (the workspace-path pattern)"},
		},
		Choices: []string{
			"Which untracked files a diff shows, as long as every one the repository does not ignore is there. The reference host shows the ones `git ls-files --others --exclude-standard` lists: paths ignored by `.gitignore` (or `.git/info/exclude`) are left out; `node_modules` and `*.log` files appear like any other untracked file unless ignored (the worked example shows `debug.log`, and leaves out `node_modules/`, which its `.gitignore` ignores).",
		},
		Required: []string{
			"A `diff` covers every final tracked, staged and untracked change, and only a complete one carries `diffReview` (matrix item 20; items 3 and 54 use it too).",
			"git runs with hooks, pagers, fsmonitor, external diff, textconv and filter drivers switched off and optional locks disabled: git.exec never changes the repository, and paths are data after `--` (matrix item 54 for the paths; no runnable item checks the drivers yet).",
		},
	},
	"research.fetch": {
		Backing: "the reference host when its research adapter is enabled and the tool profile grants `network.outbound` (`full_contract`); the worked example is the `doubles` host's deterministic double",
		Content: []field{
			{"url", "the normalised URL fetched"},
			{"title", "the page title when known"},
			{"content", "readable text, bounded by `maxBytes`"},
			{"mimeType", "the content type"},
			{"contentHash", "`sha256:` hash of the returned content"},
			{"truncated", "true when the content was cut"},
			{"provenance", "`{source, trust: \"untrusted_external\", retrievedAt, contentHash}`"},
		},
		Effects: []attest{approvalAttest, {"researchSources", "may", "`[{kind: \"fetch\", url, summary, title?, truncated, contentHash}]` (the reference adapter attests it; the double does not)"}},
		Errors: []errCase{
			{"INVALID_INPUT", "a URL that is not public HTTP(S) (private, loopback or link-local hosts included)"},
			{"UNAVAILABLE", "the research adapter failed (retryable)"},
		},
		Required: []string{"It is `external_side_effect`: every call needs approval whatever the profile (no runnable item checks it yet)."},
	},
	"research.search": {
		Backing: "the reference host only with a configured search endpoint (`CONFORM_RESEARCH_SEARCH_URL`) and `network.outbound`; the worked example is the `doubles` host's deterministic double",
		Content: []field{
			{"results", "`{title, url, snippet, provider, provenance}` per hit, at most `maxResults`"},
			{"truncated", "true when more hits were dropped"},
			{"provenance", "provenance of the result list"},
		},
		Effects:  []attest{approvalAttest, {"researchSources", "may", "`[{kind: \"search\", url, summary, truncated, contentHash}]` per hit (the reference adapter attests it; the double does not)"}},
		Errors:   []errCase{{"UNAVAILABLE", "no endpoint configured, or the adapter failed"}},
		Required: []string{"It is `external_side_effect`: every call needs approval whatever the profile (no runnable item checks it yet)."},
	},
	"command.session": {
		Backing: backedDoubles,
		Content: []field{
			{"action", "the action performed"},
			{"sessionId", "the session the action applied to"},
			{"status", "the session's state, e.g. `running`"},
			{"stdout", "new standard output since `stdoutAfter`"},
			{"stderr", "new standard error since `stderrAfter`"},
			{"stdoutCursor", "`offset:N` to pass as `stdoutAfter` next"},
			{"stderrCursor", "`offset:N` to pass as `stderrAfter` next"},
			{"sessions", "for `list`: `{sessionId, command, status}` of every session"},
		},
		Effects: []attest{approvalAttest, {"stateVersion", "must", "for an action that changed a session: the `sha256:` version of the sessions' state"}, {"writes", "may", "only from workspace snapshots, as for `command.run`"}},
		Errors: []errCase{
			{"NOT_FOUND", "an unknown `sessionId`"},
			{"CONFLICT", "`write` to a session that is not running"},
			{"INVALID_INPUT", "a missing `command`, `sessionId` or `input` the action needs; an invalid cursor"},
		},
	},
	"preview.manage": {
		Backing: backedDoubles,
		Content: []field{
			{"action", "`open` or `close`"},
			{"sessionId", "the preview's ID"},
			{"status", "the preview's state, e.g. `open`"},
			{"url", "the local URL (loopback only)"},
			{"artifactId", "the captured artifact when `captureArtifact`"},
		},
		Effects: []attest{approvalAttest, {"stateVersion", "must", "the `sha256:` version of the previews' state"}},
		Errors:  []errCase{{"NOT_FOUND", "`close` of an unknown preview"}, {"INVALID_INPUT", "an argument the action needs is missing"}},
	},
	"perception.analyze": {
		Backing: backedDoubles,
		Content: []field{
			{"artifactId", "the artifact analysed"},
			{"mode", "`ocr`, `metadata` or `vision`"},
			{"observations", "bounded observations, untrusted"},
			{"confidence", "0 to 1"},
			{"analyzer", "the analyser's name and version"},
			{"provenance", "`{source, trust: \"untrusted_tool_output\", …}`"},
		},
		Effects:  []attest{approvalAttest},
		Errors:   []errCase{{"NOT_FOUND", "an unknown artifact"}},
		Required: []string{"Artifact observations are never workspace inspection: no `inspectedPaths` (the effect profile; matrix item 9 checks the profile)."},
	},
	"artifact.create": {
		Backing: backedDoubles,
		Content: []field{
			{"id", "the new artifact's ID"},
			{"mimeType", "as given"},
			{"contentHash", "`sha256:` hash of the content"},
			{"bytes", "the content's size in bytes"},
		},
		Effects: []attest{approvalAttest, {"stateVersion", "must", "the `sha256:` version of the artifact store; never a workspace write"}},
		Errors:  []errCase{{"INVALID_INPUT", "a missing `name`, `content` or `mimeType`"}},
	},
	"artifact.list": {
		Backing: backedDoubles,
		Content: []field{
			{"artifacts", "`{id, kind, mimeType, contentHash, createdAt}` per artifact"},
			{"nextCursor", "present when more follow"},
		},
		Effects: []attest{approvalAttest},
		Errors:  []errCase{{"INVALID_INPUT", "an invalid cursor"}},
	},
	"artifact.read": {
		Backing: backedDoubles,
		Content: []field{
			{"id", "the artifact read"},
			{"content", "bounded text, untrusted"},
			{"mimeType", "the artifact's type"},
			{"contentHash", "`sha256:` hash of the whole artifact"},
			{"truncated", "true when more content follows"},
			{"provenance", "`{source: \"artifact:<id>\", trust: \"untrusted_tool_output\", …}`"},
			{"nextCursor", "present when `truncated`"},
		},
		Effects: []attest{approvalAttest},
		Errors:  []errCase{{"NOT_FOUND", "an unknown artifact"}, {"INVALID_INPUT", "an invalid cursor, or one inside a multi-byte character"}},
	},
	"user.ask": {
		Backing: backedDoubles,
		Content: []field{
			{"answers", "`{id, answer}` per question, matched by `id`"},
			{"cancelled", "true when the user cancelled"},
		},
		Effects:  []attest{approvalAttest},
		Errors:   []errCase{{"(none)", "the double answers every question the schema admits"}},
		Required: []string{"An answer never waives an acceptance criterion by itself (the effect profile has no `criterion_waive`; matrix item 9 checks the profile)."},
	},
}
