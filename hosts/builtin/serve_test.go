package builtin

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

func TestParseServeAcceptsEverySpellingOfMutant(t *testing.T) {
	for _, args := range [][]string{
		{"reference", "--mutant", "symlink-escape"},
		{"reference", "--mutant=symlink-escape"},
		{"reference", "-mutant", "symlink-escape"},
		{"reference", "-mutant=symlink-escape"},
		{"--mutant", "symlink-escape", "reference"},
	} {
		name, mutant, err := ParseServe(args)
		if err != nil || name != "reference" || mutant != "symlink-escape" {
			t.Errorf("ParseServe(%q) = %q, %q, %v; want reference, symlink-escape, nil", args, name, mutant, err)
		}
	}
	if name, mutant, err := ParseServe([]string{"doubles"}); err != nil || name != "doubles" || mutant != "" {
		t.Errorf("ParseServe([doubles]) = %q, %q, %v", name, mutant, err)
	}
}

// Both spellings of an unknown mutant are the same usage error, so conform
// exits 2 with the same message whichever was written.
func TestParseServeRefusesBothSpellingsAlike(t *testing.T) {
	_, _, spaced := ParseServe([]string{"reference", "--mutant", "nope"})
	_, _, joined := ParseServe([]string{"reference", "--mutant=nope"})
	var ue *UsageError
	if !errors.As(spaced, &ue) || !errors.As(joined, &ue) {
		t.Fatalf("want usage errors, got %v and %v", spaced, joined)
	}
	if spaced.Error() != joined.Error() || !strings.Contains(spaced.Error(), `unknown mutant "nope" (known: `) {
		t.Errorf("messages differ or do not name the known mutants:\n%v\n%v", spaced, joined)
	}
}

func TestParseServeRefusals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "name the built-in host to serve (control-crash, control-garbage, control-hang, doubles, reference)"},
		{[]string{"reference", "extra"}, `unexpected arguments ["extra"]`},
		{[]string{"reference", "--other", "x"}, "flag provided but not defined: -other\nusage: " + ServeUsage},
		{[]string{"nosuch"}, `unknown built-in host "nosuch" (known: control-crash, control-garbage, control-hang, doubles, reference)`},
		{[]string{"doubles", "--mutant", "symlink-escape"}, `--mutant needs the "reference" host, not "doubles"`},
		{[]string{"reference", "--mutant"}, "flag needs an argument: -mutant"},
	} {
		_, _, err := ParseServe(tc.args)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), "host serve: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseServe(%q) = %v; want a usage error containing %q", tc.args, err, tc.want)
		}
	}
	if _, _, err := ParseServe([]string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("ParseServe([-h]) = %v, want flag.ErrHelp", err)
	}
}

func TestServeMainExitsTwoOnAUsageError(t *testing.T) {
	var stdout, stderr strings.Builder
	if code := ServeMain([]string{"reference", "--mutant", "nope"}, &stdout, &stderr); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.HasPrefix(stderr.String(), `conform: host serve: unknown mutant "nope"`) || stdout.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := ServeMain([]string{"--help"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "usage: "+ServeUsage) {
		t.Errorf("--help: exit %d, stdout %q", code, stdout.String())
	}
}
