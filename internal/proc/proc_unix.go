//go:build unix

package proc

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Alive reports whether pid names a process that exists and is not a
// zombie waiting to be reaped. Without /proc (macOS) kill(pid, 0) is all
// there is.
func Alive(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return !(i >= 0 && len(s) > i+2 && (s[i+2] == 'Z' || s[i+2] == 'X'))
}

// Kill ends pid at once (SIGKILL).
func Kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
