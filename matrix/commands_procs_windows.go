package matrix

import "os"

// processAlive reports whether pid names a running process.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// killProcess ends a process a host left behind.
func killProcess(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

// processesUnder returns no table: Windows has no /proc to read working
// directories from.
func processesUnder(dir string) (pids []int, table bool) { return nil, false }
