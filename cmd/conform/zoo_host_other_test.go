//go:build !linux

package main

import (
	"fmt"
	"os"
)

// zooHost is Linux-only: the hostile hosts need setsid, process groups and
// /proc to be checked.
func zooHost(mode, dir string, once bool) {
	fmt.Fprintln(os.Stderr, "testhost zoo: hostile hosts run on Linux only")
	os.Exit(2)
}
