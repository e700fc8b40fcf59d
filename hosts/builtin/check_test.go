package builtin

import (
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/reference"
)

// countBuilds replaces the reference host's constructor for the test by
// one that counts its calls and returns an unstarted host (so no probe
// runs), and returns how many hosts were built so far.
func countBuilds(t *testing.T) func() int {
	t.Helper()
	n := 0
	saved := newReference
	newReference = func(reference.Options) *reference.Host {
		n++
		return new(reference.Host)
	}
	t.Cleanup(func() { newReference = saved })
	return func() int { return n }
}

// Checking a host or mutant name reads the static tables: no reference
// host (and so no containment probe) is built, whether the name is known
// or not, and whichever entry point checks it.
func TestCheckingANameBuildsNoHost(t *testing.T) {
	built := countBuilds(t)
	for _, c := range []struct{ host, mutant string }{
		{"reference", ""}, {"doubles", ""}, {"reference", "symlink-escape"},
		{"reference", "no-such-mutant"}, {"doubles", "symlink-escape"}, {"no-such-host", ""},
	} {
		_ = Check(c.host, c.mutant)
		args := []string{c.host}
		if c.mutant != "" {
			args = append(args, "--mutant", c.mutant)
		}
		_, _, _ = ParseServe(args)
	}
	if n := built(); n != 0 {
		t.Errorf("checking names built %d reference hosts, want 0", n)
	}
}

// Check and Handler agree: Handler builds exactly the hosts Check accepts,
// one each, and refuses the others with Check's error.
func TestHandlerBuildsOnlyWhatCheckAccepts(t *testing.T) {
	built := countBuilds(t)
	for _, c := range []struct {
		host, mutant, refusal string
	}{
		{"reference", "", ""},
		{"doubles", "", ""},
		{"reference", "symlink-escape", ""},
		{"reference", "no-such-mutant", `unknown mutant "no-such-mutant"`},
		{"doubles", "symlink-escape", `--mutant needs the "reference" host`},
		{"no-such-host", "", `unknown built-in host "no-such-host"`},
	} {
		before := built()
		checkErr := Check(c.host, c.mutant)
		h, err := Handler(c.host, c.mutant)
		if c.refusal == "" {
			if checkErr != nil || err != nil || h == nil {
				t.Errorf("%s --mutant %q: Check = %v, Handler = %v, %v; want a host", c.host, c.mutant, checkErr, h, err)
			}
			if built()-before != 1 {
				t.Errorf("%s --mutant %q: built %d hosts, want 1", c.host, c.mutant, built()-before)
			}
			continue
		}
		if checkErr == nil || err == nil || checkErr.Error() != err.Error() || !strings.Contains(err.Error(), c.refusal) {
			t.Errorf("%s --mutant %q: Check = %v, Handler = %v; want both %q", c.host, c.mutant, checkErr, err, c.refusal)
		}
		if built() != before {
			t.Errorf("%s --mutant %q: a refused name built a host", c.host, c.mutant)
		}
	}
}
