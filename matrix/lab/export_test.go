package lab

// Test seams for the Git baseline.
var (
	GitBaseline    = gitBaseline
	NeutralGitArgs = neutralGitArgs
	FilterDrivers  = filterDrivers
	GitEnv         = gitEnv
)
