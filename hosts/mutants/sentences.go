package mutants

import "slices"

// sentences maps each guarantee a mutant breaks to the keys of the
// contract sentences that state it (conform matrix --json lists them): the
// seed's "Required host guarantees" (W2, C8, …) and, where the guarantee is
// a matrix line's own, that line (L27). conform selftest credits a mutant
// with a kill only when an item fails on an assertion of one of these.
var sentences = map[string][]string{
	gEscapes:             {"W1", "W2"},
	gPrecondition:        {"W3"},
	gUntouched:           {"W3", "L21", "L32"},
	gUTF8:                {"W3", "L32"},
	gBounds:              {"W5"},
	gFingerprint:         {"W6"},
	gScan:                {"W5", "L27"},
	gSpawn:               {"C2", "C3"},
	gPublish:             {"C1", "C4"},
	gCwd:                 {"C6"},
	gTimeout:             {"C7"},
	gCancel:              {"C8"},
	gStreams:             {"C9"},
	gStdin:               {"C1", "L52"},
	gExit:                {"C10"},
	gContainment:         {"C12"},
	gLabel:               {"C11", "C12"},
	gSchemas:             {"T1"},
	gOutputSchema:        {"T1", "T13"},
	gRouting:             {"T2"},
	gPolicy:              {"T4"},
	gScripts:             {"T11"},
	gIdempotency:         {"T12"},
	gWrites:              {"T6", "W4"},
	gDerived:             {"T9", "T10"},
	gFailed:              {"T15", "T16"},
	gGitPaths:            {"C2", "C3", "L20", "L54"},
	gDiffReview:          {"R7", "L20"},
	gPublicOnly:          {"R1"},
	gStore:               {"S4", "L40"},
	gTrace:               {"S4"},
	gTaskState:           {"L10", "L49"},
	gStructured:          {"L45"},
	gThrows:              {"T13", "T14"},
	gPartial:             {"T6", "L29"},
	gEditConflict:        {"W3", "L2"},
	gTyped:               {"T8"},
	gManifests:           {"W5", "L27"},
	gDetectDirs:          {"W5", "L33"},
	gExclusions:          {"W5", "L33"},
	gApprovalOut:         {"T4"},
	gContained:           {"C11"},
	gStoreGet:            {"S1", "L10", "L11", "L40"},
	gVerify:              {"W6"},
	gRestore:             {"L39", "L49", "L50"},
	gClone:               {"S2"},
	gSorted:              {"S2", "L39"},
	gAtomic:              {"W3", "L2"},
	gHashes:              {"W4"},
	gCreateNull:          {"T7"},
	gDirKinds:            {"T8"},
	gResearchAdapter:     {"R1"},
	gResearchCredentials: {"R3", "S5"},
	gResearchBounds:      {"R4"},
	gResearchUntrusted:   {"R5"},
	gResearchTruncation:  {"R7"},
	gResearchEffects:     {"R6"},
	gResearchScope:       {"R8", "R9"},
	gReplay:              {"S3", "L14"},
	// Commands.
	gDialect: {"C1", "C3"},
	// Tool executor error semantics; store and trace.
	gRetryable:           {"T14"},
	gCorrelated:          {"S3"},
	gStoreOutside:        {"S1"},
	gConcreteEnvironment: {"C5"},
	gDeclared:            {"P4", "T4"},
	gDenialID:            {"T15", "S3"},
	gDerivedVersion:      {"T10"},
	gOutputText:          {"T5"},
}

// Sentences returns the keys of the contract sentences the mutant breaks.
func (m Mutant) Sentences() []string { return slices.Clone(sentences[m.Guarantee]) }
