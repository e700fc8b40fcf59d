package reports

// SelfTest is the kill matrix of a self-test document: the faults that
// were certified, the items that caught them, and what the self-test found
// wrong. The document's Items are the reference host's certification.
type SelfTest struct {
	// Passed is true when the reference host passed, every targeted
	// fault was killed and every item can fail.
	Passed bool `json:"passed"`
	// Faults are the kill matrix's rows, mutants first, each kind sorted
	// by name.
	Faults []KillRow `json:"faults"`
	// Items are its columns: each runnable item with what it killed.
	Items []KillColumn `json:"items"`
	// Unchecked are the guarantee sentences no runnable item checks.
	Unchecked []Unchecked `json:"unchecked"`
	// Variants are the acceptance matrix's rows: every permitted variation
	// of the reference host, which every item must pass.
	Variants []AcceptRow `json:"variants,omitempty"`
	// Problems say why the self-test did not pass, one line each.
	Problems []string `json:"problems"`
}

// An AcceptRow is one variant of the acceptance matrix.
type AcceptRow struct {
	Name        string `json:"name"`
	Choice      string `json:"choice"`
	Description string `json:"description"`
	// Status is accepted (every item ran passed), rejected (some item
	// failed: an over-specified check) or error.
	Status string `json:"status"`
	// Ran are the items certified against the variant, FailedItems those
	// that failed it.
	Ran         []int `json:"ran"`
	FailedItems []int `json:"failedItems"`
	// Rechecked are the items certified once more because they failed
	// only on deadlines, host failures or the harness.
	Rechecked []int  `json:"rechecked,omitempty"`
	Error     string `json:"error,omitempty"`
}

// A KillRow is one fault of the kill matrix.
type KillRow struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	// Sentences are the keys of the contract sentences the fault breaks
	// (none for a control).
	Sentences []string `json:"sentences"`
	// Targets are the items that could catch the fault.
	Targets []int `json:"targets"`
	KillOutcome
}

// A KillOutcome is what certifying a fault against its targets found.
type KillOutcome struct {
	// Status is killed, collateral (items failed, none on an assertion of
	// a sentence the fault breaks), survived, untestable (every check that
	// could see it was not applicable here; Error says why), untargeted or
	// error.
	Status string `json:"status"`
	// Ran are the targets the fault was certified against.
	Ran []int `json:"ran"`
	// FailedItems are the items that failed against it.
	FailedItems []int `json:"failedItems"`
	// KilledBy are those of FailedItems that failed on an assertion of a
	// sentence the fault breaks: the kill matrix row.
	KilledBy []int `json:"killedBy"`
	// Collateral are the other FailedItems, each with why its failure is
	// not a kill.
	Collateral []CollateralItem `json:"collateral"`
	// Error says why the fault's certification could not run.
	Error string `json:"error,omitempty"`
}

// A CollateralItem is an item that failed against a fault without seeing
// the guarantee it breaks, and why.
type CollateralItem struct {
	Item int `json:"item"`
	// Why names what failed the item's checks: "host" (it exited, hung up
	// or sent what is not JSON-RPC), "deadline", "harness", or "checks of
	// W5, L1" (assertions of sentences the fault does not break).
	Why string `json:"why"`
}

// A KillColumn is one runnable item of the kill matrix: whether it can
// fail.
type KillColumn struct {
	ID    int    `json:"id"`
	Scope string `json:"scope"`
	// Mutants and CoreFaults are the faults of each kind the item killed.
	Mutants    []string `json:"mutants"`
	CoreFaults []string `json:"coreFaults"`
	// CannotFail says which fault kind of its scope the item killed none
	// of, if any.
	CannotFail string `json:"cannotFail,omitempty"`
}

// Unchecked is a guarantee sentence no runnable item checks.
type Unchecked struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}
