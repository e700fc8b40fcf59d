//go:build !linux

package hostproc

import "os"

// A procState is what the system says of a live host process; outside
// Linux nothing is read.
type procState struct {
	known   bool
	state   byte
	wchan   string
	threads string
	others  []string
}

func readProcState(pid int) procState { return procState{} }

// pendingBytes reports nothing outside Linux.
func pendingBytes(f *os.File) int { return 0 }
