//go:build unix

package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// processAlive reports whether pid is a live process: it exists and, where
// /proc tells, is not a zombie.
func processAlive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err)
	}
	// The state follows the parenthesised command name.
	if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) {
		return b[i+2] != 'Z'
	}
	return true
}

func killProcess(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
