//go:build !unix

package atomicfile

import "testing"

// mkfifo returns "": named pipes are a Unix thing.
func mkfifo(t *testing.T, dir string) string { return "" }
