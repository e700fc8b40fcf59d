//go:build !linux

package hostproc

// Supervise does nothing outside Linux: there is no child subreaper, and
// a host's descendants are reached only through its process group (macOS
// and the BSDs) or not at all (Windows, where only the host process itself
// is killed).
func Supervise() error { return nil }

// A proc is a process of a host's tree.
type proc struct{}

// treeOf finds nothing outside Linux.
func treeOf(hostPid int, token string, known []proc) []proc { return nil }

// killProcs kills nothing outside Linux and reports 0.
func killProcs(hostPid int, token string, known []proc) int { return 0 }

// TreeOf is for tests: the PIDs of live processes carrying token. Outside
// Linux it finds nothing.
func TreeOf(token string) []int { return nil }
