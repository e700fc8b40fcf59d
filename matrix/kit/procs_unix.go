//go:build !windows

package kit

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/galaxy-stack/conform/internal/proc"
)

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
		if (cwd == dir || strings.HasPrefix(cwd, dir+string(filepath.Separator))) && proc.Alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids, true
}
