package main

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdExits is the script command
//
//	exits STATUS DURATION PROGRAM [ARGS...]
//
// It runs PROGRAM and fails unless it exits with STATUS within DURATION
// (it is killed at the bound); PROGRAM's output is the command's output.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	scriptUsage(ts, neg, len(args) >= 3, "exits STATUS DURATION PROGRAM [ARGS...]")
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: status %q is not a number", args[0])
	}
	bound, err := time.ParseDuration(args[1])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	prog, err := lookPath(ts, args[2])
	ts.Check(err)
	cmd := exec.Command(prog, args[3:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = scriptEnv(ts)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	ts.Check(cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-done:
	case <-time.After(bound):
		cmd.Process.Kill()
		<-done
		ts.Fatalf("exits: %s did not exit within %s (killed)\nstdout:\n%s\nstderr:\n%s", args[2], bound, stdout.String(), stderr.String())
	}
	took := time.Since(start)
	fmt.Fprint(ts.Stdout(), stdout.String())
	fmt.Fprint(ts.Stderr(), stderr.String())
	code := exitCode(ts, "exits", werr)
	ts.Logf("exits: %s exited %d after %s", args[2], code, took.Round(10*time.Millisecond))
	if code != want {
		ts.Fatalf("exits: %s exited %d, want %d\nstdout:\n%s\nstderr:\n%s", args[2], code, want, stdout.String(), stderr.String())
	}
}
