package faults

// hostUnreachable names the faults that no scenario run through a host can
// reach, with why; the unit specs of core/run (faults_test.go) catch them,
// and `conform selftest` lists them as untargeted with this reason rather
// than certifying a host against them.
var hostUnreachable = map[string]string{
	GateMissingFingerprintFresh: "the gate lacks a final workspace fingerprint only when the core has no workspace verifier, and then a validation cannot become evidence: the run fails TOOL_EXECUTION at the validation, as it does when a final capture fails (fixtures/matrix/04-failed-stale-validation/CHECKS.md); core/run/faults_test.go catches it",
}

// HostUnreachable returns why no host scenario can reach the fault name,
// or "" when one can.
func HostUnreachable(name string) string { return hostUnreachable[name] }
