package main

import (
	"os"
	"strconv"
	"testing"

	"github.com/galaxy-stack/conform/internal/redact"
	"golang.org/x/sys/unix"
)

// TestIsTerminalPty: the follower side of a pseudo-terminal is a
// terminal, and isTerminal sees it through the redactor main wraps
// standard output in.
func TestIsTerminalPty(t *testing.T) {
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	defer ptmx.Close()
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("pty number: %v", err)
	}
	pts, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("cannot open the pty's follower: %v", err)
	}
	defer pts.Close()
	if !isTerminal(pts) {
		t.Error("isTerminal(pty) = false, want true")
	}
	if !isTerminal(redact.Writer(pts)) {
		t.Error("isTerminal(redact.Writer(pty)) = false, want true")
	}
}
