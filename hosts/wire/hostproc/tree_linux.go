package hostproc

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

var subreaper atomic.Bool

// Supervise makes this process a child subreaper (Linux
// prctl(PR_SET_CHILD_SUBREAPER)): a host's descendants whose parent dies
// are re-parented to conform instead of to init, so that they can still
// be found, killed and reaped when the session ends. cmd/conform's main
// and every test main that starts hosts call it first thing; it is safe
// to call more than once. Without it, descendants are still found by
// their environment token and killed, but re-parented ones are reaped by
// init rather than by conform.
func Supervise() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return err
	}
	subreaper.Store(true)
	return nil
}

// A proc is one process of a host's tree, identified by PID and start time
// (so that a reused PID is never mistaken for it).
type proc struct {
	pid, ppid, pgrp int
	start           string
}

// readProc reads /proc/pid/stat.
func readProc(pid int) (proc, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	// pid (comm) state ppid pgrp session ... starttime is field 22; comm
	// may hold spaces and parentheses, so parse after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return proc{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	pgrp, _ := strconv.Atoi(f[2])
	return proc{pid: pid, ppid: ppid, pgrp: pgrp, start: f[19]}, true
}

func allProcs() []proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// tokenOf returns the TokenEnv value in a process's environment, or "".
func tokenOf(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return ""
	}
	prefix := []byte(TokenEnv + "=")
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, prefix); ok {
			return string(v)
		}
	}
	return ""
}

// treeOf returns the live processes of a host's tree but the host itself:
// its process group, its descendants by parent link, every process
// carrying its token, and those of known (an earlier snapshot) that are
// still the same processes. A process carrying another host's token is
// never part of it, whatever its links (a reused PID cannot pull in
// another session's host).
func treeOf(hostPid int, token string, known []proc) []proc {
	all := allProcs()
	self := os.Getpid()
	in := map[int]bool{}
	foreign := map[int]bool{}
	for _, p := range all {
		if p.pid == hostPid || p.pid == self {
			continue
		}
		switch tok := tokenOf(p.pid); {
		case tok == token && token != "":
			in[p.pid] = true
		case tok != "":
			foreign[p.pid] = true
		case p.pgrp == hostPid:
			in[p.pid] = true
		}
	}
	byPid := map[int]proc{}
	for _, p := range all {
		byPid[p.pid] = p
	}
	for _, k := range known {
		if p, ok := byPid[k.pid]; ok && p.start == k.start && k.pid != self && !foreign[k.pid] {
			in[k.pid] = true
		}
	}
	// Close over parent links, from the host and from what was found.
	for changed := true; changed; {
		changed = false
		for _, p := range all {
			if !in[p.pid] && !foreign[p.pid] && p.pid != self && p.pid != hostPid && (p.ppid == hostPid || in[p.ppid]) {
				in[p.pid] = true
				changed = true
			}
		}
	}
	var out []proc
	for _, p := range all { // in /proc order, which is PID order
		if in[p.pid] {
			out = append(out, p)
		}
	}
	return out
}

// killProcs kills the tree of a host (see treeOf) with SIGKILL, in a few
// rounds so that a process forked during a sweep is caught by the next,
// reaps those re-parented to this process, and returns how many it killed.
func killProcs(hostPid int, token string, known []proc) int {
	killed := map[int]proc{}
	for round := 0; round < 4; round++ {
		found := treeOf(hostPid, token, known)
		fresh := 0
		for _, p := range found {
			if _, ok := killed[p.pid]; !ok {
				fresh++
			}
			killed[p.pid] = p
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
		if fresh == 0 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	reap(killed)
	return len(killed)
}

// reap waits for the killed processes that are now this process's
// children (re-parented to the subreaper), for at most a second in all.
func reap(killed map[int]proc) {
	self := os.Getpid()
	deadline := time.Now().Add(time.Second)
	for pid := range killed {
		for {
			p, ok := readProc(pid)
			if !ok || p.ppid != self {
				break
			}
			var ws syscall.WaitStatus
			got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
			if got == pid || err != nil || time.Now().After(deadline) {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
}

// TreeOf returns the PIDs of the live (not zombie) processes whose
// environment carries token, for tests that check that no process of a
// host's tree is left.
func TreeOf(token string) []int {
	var out []int
	for _, p := range allProcs() {
		if token != "" && tokenOf(p.pid) == token {
			out = append(out, p.pid)
		}
	}
	return out
}
