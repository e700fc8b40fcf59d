//go:build unix

package command

import (
	"os"
	"syscall"
	"time"
)

// sysProcAttr starts the child in a new process group, so the whole tree
// can be signalled (LAB_AND_HOSTS §11.2 step 8); argv crosses exec
// unchanged.
func sysProcAttr([]string) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// terminateTree signals the child's process group with SIGTERM, or SIGKILL
// when force is set; if the group is already gone the child itself is
// signalled (LAB_AND_HOSTS §11.2 step 10).
func terminateTree(p *os.Process, force bool) {
	sig := syscall.SIGTERM
	if force {
		sig = syscall.SIGKILL
	}
	if err := syscall.Kill(-p.Pid, sig); err != nil {
		_ = p.Signal(sig)
	}
}

// reapGroup makes sure no member of process group pgid outlives the
// command: any survivor gets SIGTERM, then SIGKILL after the grace, and
// reapGroup waits (bounded) until the group is empty. It reports whether
// the group is empty on return.
func reapGroup(pgid int, grace time.Duration) bool {
	if !groupAlive(pgid) {
		return true
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	if waitGroupGone(pgid, grace) {
		return true
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	return waitGroupGone(pgid, 2*time.Second)
}

// waitGroupGone polls until group pgid is empty or the wait elapses.
func waitGroupGone(pgid int, wait time.Duration) bool {
	end := time.Now().Add(wait)
	for {
		if !groupAlive(pgid) {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// linkCount returns a file's hard-link count.
func linkCount(info os.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// detachedAttr starts a process in a new session, detached from its
// parent's process group.
func detachedAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
