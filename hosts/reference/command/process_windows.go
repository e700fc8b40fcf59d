package command

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// sysProcAttr hides the console window, starts a new process group and
// passes argv as the cmd.exe command line of [commandLine].
func sysProcAttr(argv []string) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{HideWindow: true, CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP, CmdLine: commandLine(argv)}
}

// commandLine renders the cmd.exe command line: the executable and the
// arguments prefix quoted as usual, the command string wrapped in one pair
// of quotes that cmd /s strips, so cmd sees the command verbatim.
func commandLine(argv []string) string {
	parts := make([]string, 0, len(argv))
	for _, a := range argv[:len(argv)-1] {
		parts = append(parts, syscall.EscapeArg(a))
	}
	return strings.Join(append(parts, `"`+argv[len(argv)-1]+`"`), " ")
}

// terminateTree ends the child and its descendants with taskkill /T /F,
// falling back to killing the child (LAB_AND_HOSTS §11.2 step 10).
func terminateTree(p *os.Process, _ bool) {
	killer := exec.Command("taskkill", "/pid", strconv.Itoa(p.Pid), "/T", "/F")
	killer.SysProcAttr = &syscall.SysProcAttr{HideWindow: true}
	if err := killer.Run(); err != nil {
		_ = p.Kill()
	}
}

// reapGroup has no process group to wait for on Windows; descendants are
// ended through taskkill /T while their parent is alive.
func reapGroup(int, time.Duration) bool { return true }

// linkCount is not needed on Windows, where containment never activates.
func linkCount(os.FileInfo) uint64 { return 1 }

// detachedAttr starts a process in a new process group without a window.
func detachedAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{HideWindow: true, CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}
