//go:build windows

package workspace

// syncDir is a no-op on Windows, where directories cannot be opened for
// flushing; the rename itself is durable once it returns.
func syncDir(string) {}
