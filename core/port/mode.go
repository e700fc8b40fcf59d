package port

// Task modes (CONTRACTS §3, §3.1): the mode of a run request, which also
// filters the catalog. The default is ModeAuto.
const (
	ModeAuto         = "auto"
	ModeScaffold     = "scaffold"
	ModeRefactor     = "refactor"
	ModeReviewOnly   = "review_only"
	ModeValidateOnly = "validate_only"
)
