//go:build !linux

package hostproc

// awaitExit returns at once where waiting without reaping is not
// available: cmd.Wait then reaps the host before its group is killed.
func awaitExit(pid int) {}
