// Package effects is the core's effect authority: the versioned effect
// profile of the 21 canonical tools and the pure checks the runtime applies
// to every host tool result (CONTRACTS §7).
//
// Tool output text is model-visible data only. It becomes trusted evidence
// only through a host-authored [port.Effects] object carried with
// effectsAuthority "host", and only within the capabilities the tool set
// declares for the tool's canonical ID. The core profile ([CoreProfile]) is
// the maximum authority of each built-in tool: a tool may omit any allowed
// effect but must never emit one that is absent.
//
// # Example
//
// A host builds its tool set from the active descriptors:
//
//	meta, err := effects.NewMetadata(effects.RefsOf(activeDescriptors))
//	// meta.CanonicalToolIDs: modelName → canonical ID (active tools only)
//	// meta.EffectCapabilities: the full 21-tool profile
//
// The core checks the tool set once at load and every result as it arrives:
//
//	policy, err := effects.CheckToolSet(toolSet)
//	err = effects.CheckResult(result, effects.Expect{
//		ModelName:       call.Name,
//		CanonicalToolID: toolSet.CanonicalToolIDs[call.Name],
//		Mode:            mode,
//		Capabilities:    policy[result.CanonicalToolID],
//		KnownCriteria:   criterionIDs,
//	})
//
// Every rejection is an [*Error] with code TOOL_EXECUTION and the exact
// message of the original runtime, so errors.Is(err, ErrToolExecution)
// holds. The profile functions of CONTRACTS §7.4 ([ValidateProfile],
// [AssertProfile], [AssertCoreCapabilities], [NewMetadata]) return plain
// errors with the original messages.
//
// # What this package does not do
//
// Applying effects (pending-approval bookkeeping, evidence lists, state
// transitions, workspace fingerprints) belongs to the run controller. The
// pure pieces it needs are here: [CheckPending], [ApprovalRecord],
// [NeedsWorkspaceFingerprint], [TargetState], [NormalizeResearchURL] and
// [ObservationKind].
//
// # Presence of optional fields
//
// The original runtime distinguishes an absent effect field from a present
// but empty one. [port.Effects] keeps that distinction for lists (nil versus
// an empty non-nil slice, as produced by decoding "[]") and for DiffReview
// and Plan (nil pointer), but not for the string fields Approval,
// ApprovalRequestID, NextAction and StateVersion: the empty string counts as
// absent. A whitespace-only string is present and is rejected where the
// original rejects it.
package effects
