package hostproc

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// A procState is what /proc says of a live host process when a call goes
// unanswered: its scheduler state, where it sleeps in the kernel, the
// states of its threads and the other processes of its tree.
type procState struct {
	known   bool   // /proc was read
	state   byte   // the state letter of /proc/PID/stat: R, S, D, T, Z...
	wchan   string // the kernel function it waits in, "" when not known
	threads string // its threads' states when not all sleeping, "3 S, 1 R"
	others  []string
}

// maxOthers bounds the other processes of the tree a diagnosis names.
const maxOthers = 4

// readProcState reads the state of the host process pid and of the
// processes below it.
func readProcState(pid int) procState {
	dir := "/proc/" + strconv.Itoa(pid)
	_, state, ok := statOf(dir + "/stat")
	if !ok {
		return procState{}
	}
	ps := procState{known: true, state: state, wchan: wchanOf(dir + "/wchan")}
	counts := map[byte]int{}
	var blocked []string
	if ents, err := os.ReadDir(dir + "/task"); err == nil {
		for _, e := range ents {
			_, st, ok := statOf(dir + "/task/" + e.Name() + "/stat")
			if !ok {
				continue
			}
			counts[st]++
			if st == 'D' {
				if w := wchanOf(dir + "/task/" + e.Name() + "/wchan"); w != "" {
					blocked = append(blocked, w)
				}
			}
		}
	}
	if len(counts) > 1 || counts['S'] == 0 && len(counts) == 1 {
		letters := make([]byte, 0, len(counts))
		for l := range counts {
			letters = append(letters, l)
		}
		sort.Slice(letters, func(i, j int) bool { return letters[i] < letters[j] })
		parts := make([]string, 0, len(letters))
		for _, l := range letters {
			parts = append(parts, fmt.Sprintf("%d %c", counts[l], l))
		}
		ps.threads = strings.Join(parts, ", ")
		if len(blocked) > 0 {
			sort.Strings(blocked)
			ps.threads += " (D in " + strings.Join(slices.Compact(blocked), ", ") + ")"
		}
	}
	for _, p := range descendants(pid) {
		if len(ps.others) == maxOthers {
			ps.others = append(ps.others, "…")
			break
		}
		comm, st, ok := statOf("/proc/" + strconv.Itoa(p.pid) + "/stat")
		if ok {
			ps.others = append(ps.others, fmt.Sprintf("%s (%c)", comm, st))
		}
	}
	return ps
}

// descendants returns the processes below pid by parent links, and those
// of its process group, in PID order. Unlike treeOf it reads no process's
// environment, which waits for a process that holds its memory map locked:
// a diagnosis must not hang on an unrelated process.
func descendants(pid int) []proc {
	all := allProcs()
	in := map[int]bool{}
	for changed := true; changed; {
		changed = false
		for _, p := range all {
			if p.pid != pid && !in[p.pid] && (p.ppid == pid || p.pgrp == pid || in[p.ppid]) {
				in[p.pid] = true
				changed = true
			}
		}
	}
	var out []proc
	for _, p := range all {
		if in[p.pid] {
			out = append(out, p)
		}
	}
	return out
}

// statOf returns the command name and state letter of a /proc stat file.
func statOf(path string) (string, byte, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", 0, false
	}
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open || end+2 >= len(b) {
		return "", 0, false
	}
	return string(b[open+1 : end]), b[end+2], true
}

// wchanOf returns the kernel function a process or thread waits in, or ""
// when the kernel does not say ("0", or an unreadable file).
func wchanOf(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	if s == "0" || len(s) > 64 {
		return ""
	}
	return s
}

// pendingBytes returns how many bytes wait unread in the pipe f (FIONREAD, TIOCINQ),
// or 0 when f is nil, closed or not a pipe. It does not change f's mode.
func pendingBytes(f *os.File) int {
	if f == nil {
		return 0
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	_ = rc.Control(func(fd uintptr) {
		if v, err := unix.IoctlGetInt(int(fd), unix.TIOCINQ); err == nil {
			n = v
		}
	})
	return n
}
