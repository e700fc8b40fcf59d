//go:build !windows

package matrix

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// processAlive reports whether pid names a process that exists and is not
// a zombie waiting to be reaped: a process the host should have ended.
func processAlive(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc (macOS): kill(pid, 0) is all there is
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return !(i >= 0 && len(s) > i+2 && (s[i+2] == 'Z' || s[i+2] == 'X'))
}

// killProcess ends a process a host left behind, so the certification
// leaves nothing running.
func killProcess(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }

// processesUnder returns the live processes whose working directory is dir
// or lies beneath it, as the process table (/proc) shows them; nil where
// there is no /proc, which table then says. Every process of a command the host started in the
// workspace, grandchildren included, is found this way unless it changed
// directory.
func processesUnder(dir string) (pids []int, table bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil {
			continue
		}
		if (cwd == dir || strings.HasPrefix(cwd, dir+string(filepath.Separator))) && processAlive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids, true
}
