// Package faults holds the named core faults: test-only switches that turn
// off one rule of conform's bundled core each, so that a matrix item of
// "core" scope can be shown to fail when the rule it certifies is broken.
// They are to the core what the mutants of package hosts/mutants are to the
// reference host.
//
//	undo, err := faults.Enable(faults.BatchDispatchReversed)
//	if err != nil { … }
//	defer undo()
//	// every run in this process now dispatches a batch's calls in reverse
//
// # Switches
//
// Core code tests a fault at the one place its rule is applied:
//
//	// Core fault: dispatch a batch out of its emitted order.
//	if faults.On(faults.BatchDispatchReversed) {
//		slices.Reverse(prepared)
//	}
//
// On is an atomic load, so a switch costs nothing measurable when it is
// off, which it is unless a test or `--core-fault` enabled it. Every fault
// is tested at exactly one place in core code, and the package test checks
// that.
//
// # Tests
//
// Each fault has a spec in core/run (faults_test.go,
// context_faults_test.go) that runs the same scenario with the fault off
// and on and asserts the outcome changes. The
// test of this package checks the registry and that every fault is
// switched at exactly one place in core code. matrix/selftest
// (corefaults_test.go) runs the scenario fixtures of matrix items 43–45
// (fixtures/matrix) against the reference host: each passes with every
// fault off and fails with each fault it is meant to catch. That test
// lives in matrix, not here, so that this package's tests import nothing
// above core.
//
// # Scope
//
// A fault is process-wide: it changes the core running in this process
// (the harness), never a host, which runs in its own process. Faults are
// for tests and for certifying the matrix itself; a certification of a
// host never runs with one enabled.
package faults
