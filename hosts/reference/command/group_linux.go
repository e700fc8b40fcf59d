package command

import (
	"os"
	"strconv"
	"strings"
)

// groupAlive reports whether process group pgid has a living member. A
// zombie has exited and only waits to be reaped by its new parent, so it
// does not count; kill(-pgid, 0) alone would report it.
func groupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return groupSignalable(pgid)
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		state, group, ok := procStat(e.Name())
		if ok && group == pgid && state != "Z" && state != "X" {
			return true
		}
	}
	return false
}

// procStat reads the state and process group of /proc/<pid>/stat.
func procStat(pid string) (state string, pgrp int, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return "", 0, false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", 0, false
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 3 {
		return "", 0, false
	}
	g, err := strconv.Atoi(fields[2])
	if err != nil {
		return "", 0, false
	}
	return fields[0], g, true
}
