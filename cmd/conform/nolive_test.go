package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/internal/proc"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdNolive is the script command
//
//	nolive FILE
//
// It fails unless every process whose PID is a line of FILE has ended
// (a zombie counts as ended); it polls for up to two seconds, since a
// killed process takes a moment to die. A zoo host writes its PIDs to
// FILE (see zooHost).
func cmdNolive(ts *testscript.TestScript, neg bool, args []string) {
	scriptUsage(ts, neg, len(args) == 1, "nolive FILE")
	pids, err := proc.ReadPIDs(ts.MkAbs(args[0]))
	if err != nil {
		ts.Fatalf("nolive: %v", err)
	}
	if len(pids) == 0 {
		ts.Fatalf("nolive: %s lists no PID: the host never started", args[0])
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		var live []string
		for _, pid := range pids {
			if proc.Alive(pid) {
				live = append(live, strconv.Itoa(pid))
			}
		}
		if len(live) == 0 {
			ts.Logf("nolive: none of %d process(es) is alive", len(pids))
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				if proc.Alive(pid) {
					proc.Kill(pid)
				}
			}
			ts.Fatalf("nolive: process(es) %s of %s still alive 2s after the command ended (now killed)", strings.Join(live, ", "), args[0])
		}
		time.Sleep(50 * time.Millisecond)
	}
}
