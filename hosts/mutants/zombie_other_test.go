//go:build !linux && !windows

package mutants_test

// zombie cannot tell zombies apart without /proc.
func zombie(int) bool { return false }
