// Package prompt holds the run request and prompt contract of the core
// (CONTRACTS §9, RUNTIME §4): request validation with the original's
// messages, the structured prompt configuration, trusted workspace
// instructions with provenance, the task contract and the single user-task
// message, prompt assembly to the original's module structure and token
// budgets in conform's own words, the prompt hash, and the other values a
// resume must match.
//
// # Using it from the run controller
//
//	req, err := prompt.ParseRequest(data, newRunID)  // Resume passes ""
//	// err is a *RequestError (Kind "TypeError", Message exact): reject synchronously.
//	contract := prompt.ContractForRequest(req)
//	userTask := prompt.UserTaskForRequest(req, contract) // once per run: the P0 user message
//	if err := prompt.CheckCommandEnvironment(req.Prompt, toolSet.CanonicalToolIDs); err != nil {
//		// *Error with Code CAPABILITY_MISMATCH: fail before the first model request
//	}
//	snap, err := prompt.Assemble(prompt.Options{
//		Config: req.Prompt, Capabilities: caps, Mode: req.ModeOrDefault(),
//		RegistrySnapshotHash: toolSet.SnapshotHash, TaskID: req.TaskID,
//		WorkspacePath: prompt.WorkspaceRoot(),
//	})
//	integrity := prompt.NewIntegrity(prompt.IntegrityInput{Request: req, Contract: contract,
//		UserTask: userTask, Prompt: snap, Capabilities: caps, Identity: identity, ToolSet: toolSet})
//
// After a lazy activation the active registry hash changes: call
// CheckCommandEnvironment and Assemble again with the new tool set, replace
// the system message and the integrity values, and trace the new
// snapshot. The task contract and user task do not change.
//
// # Requests
//
// [ParseRequest] reads JSON into the tree the original runtime would see
// and applies RUNTIME §4.3 in order: legacy fields (systemPrompt,
// promptHash, promptVersion, workspaceInstructions) first, then unknown
// keys, reported in JavaScript's key order, then each field. The prompt
// configuration's four required fields take the enums of CONTRACTS §9.1,
// hostEnvironment and its command have exactly the keys of §9.2. Where the
// original would accept a member it never reads (extra keys in
// attachments, criteria, contextData items, a non-object completion) or
// crash while copying a null, conform rejects it with the rule's own
// message, so a typo never passes silently. Plan mode and manual
// compaction are deferred (DECISIONS 15): planMode or compactOnStart true
// is refused.
//
// # Prompt
//
// [Assemble] emits the seventeen modules of [Modules] with the original's
// ids, priorities, kinds and versions, each text in conform's own words
// stating the facts the original's tests check (DECISIONS 30), under
// [Version]. Embedded JSON is canonical (sorted keys, JavaScript escaping),
// so host objects sent in any key order give the same prompt (DECISIONS
// 31). The hash is SHA-256 over the canonical {moduleVersions,
// promptVersion, systemPrompt} (DECISIONS 32); it changes with the active
// registry hash and every stated policy, and not with probe timestamps.
//
// testdata/coverage.md maps each rule of CONTRACTS §9 to its test.
package prompt
