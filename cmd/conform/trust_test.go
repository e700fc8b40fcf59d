package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/matrix/runs/runstest"
)

// TestRunRefusesTheCommandsOfAChangedCopyOnly runs conform's own scenario
// and a copy one byte longer where no containment backend is available
// (--forbid-containment, so alike with and without bubblewrap): the first
// passes, the second's run_command never reaches the host.
func TestRunRefusesTheCommandsOfAChangedCopyOnly(t *testing.T) {
	t.Setenv(hostproc.CacheEnv, t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	same, other := runstest.Copies(t)
	run := func(p string) (int, string) {
		var out, errOut bytes.Buffer
		code := main1([]string{"run", p, "--host", "reference", "--forbid-containment"}, &out, &errOut)
		return code, out.String() + errOut.String()
	}
	if code, out := run(same); code != 0 || !strings.Contains(out, "PASS  06-nonzero-exit") {
		t.Errorf("the byte-identical copy: exit %d, want 0 and PASS:\n%s", code, out)
	}
	code, out := run(other)
	for _, want := range []string{"FAIL  06-nonzero-exit", "uncontainedCommand: conform did not send run_command", "--allow-uncontained-commands"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("the copy one byte longer: exit %d, want 1 and %q:\n%s", code, want, out)
		}
	}
}
