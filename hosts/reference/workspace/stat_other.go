//go:build !linux

package workspace

// statWithoutLinks has no single-call form here: ok is always false, and
// the caller resolves the path the general way.
func statWithoutLinks(string) (fileStat, bool) { return fileStat{}, false }
