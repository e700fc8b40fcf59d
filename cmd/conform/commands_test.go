package main

import (
	"flag"
	"regexp"
	"strings"
	"testing"
)

// flagsOf is every flag c and its subcommands declare.
func flagsOf(c *command) map[string]bool {
	names := map[string]bool{}
	for _, x := range append([]*command{c}, c.Commands...) {
		if x.declare == nil {
			continue
		}
		fs := flag.NewFlagSet(x.Name, flag.ContinueOnError)
		x.declare(fs)
		fs.VisitAll(func(f *flag.Flag) { names[f.Name] = true })
	}
	return names
}

var mentionedFlag = regexp.MustCompile(`(?:^|[\s\[|(])--?([a-z][a-z-]*)`)

// The usage line and help text of a command name only flags it declares,
// and its usage line names every flag it declares (-h aside): the table
// cannot drift from the parser.
func TestUsageLinesAndFlagsAgree(t *testing.T) {
	for _, c := range commands {
		declared := flagsOf(c)
		inUsage := map[string]bool{}
		for _, m := range mentionedFlag.FindAllStringSubmatch(c.UsageLine, -1) {
			inUsage[m[1]] = true
			if !declared[m[1]] {
				t.Errorf("conform %s: usage line names --%s, which it does not declare", c.Name, m[1])
			}
		}
		for name := range declared {
			// report declares --json-report only to refuse it with a
			// message saying where the merge document goes.
			if !inUsage[name] && !(c.Name == "report" && name == "json-report") {
				t.Errorf("conform %s: declares --%s, which its usage line does not name", c.Name, name)
			}
		}
	}
}

// help lists a command's flags from the table alone: declaring them has no
// effect, and running is left to exec.
func TestHelpListsEveryFlagWithoutRunning(t *testing.T) {
	for _, c := range commands {
		var b strings.Builder
		commandUsage(c, &b)
		for name := range flagsOf(c) {
			if !strings.Contains(b.String(), "\n  -"+name) {
				t.Errorf("conform help %s does not list -%s", c.Name, name)
			}
		}
	}
}

func TestParseFlagsInterspersed(t *testing.T) {
	for _, tc := range []struct {
		args         []string
		interspersed bool
		pos          string
		host         string
	}{
		{[]string{"--host", "h", "a", "b"}, false, "a b", "h"},
		{[]string{"a", "--host", "h"}, false, "a --host h", ""},
		{[]string{"a", "--host", "h", "b"}, true, "a b", "h"},
		{[]string{"a", "--", "--host", "h"}, true, "a --host h", ""},
		{[]string{"--", "a", "--host", "h"}, true, "a --host h", ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		host := fs.String("host", "", "")
		pos, err := parseFlags(fs, tc.args, tc.interspersed)
		if err != nil || strings.Join(pos, " ") != tc.pos || *host != tc.host {
			t.Errorf("parseFlags(%q, %v) = %q, host %q, %v; want %q, host %q", tc.args, tc.interspersed, pos, *host, err, tc.pos, tc.host)
		}
	}
}

// Every flag a command's help text mentions is a flag of some command.
func TestHelpTextNamesOnlyDeclaredFlags(t *testing.T) {
	// --stdio is a flag of the example host command 'node host.mjs --stdio';
	// --version is main's spelling of the version command.
	all := map[string]bool{"stdio": true, "version": true}
	for _, c := range commands {
		for name := range flagsOf(c) {
			all[name] = true
		}
	}
	for _, c := range commands {
		for _, m := range mentionedFlag.FindAllStringSubmatch(c.Long, -1) {
			if !all[m[1]] {
				t.Errorf("conform help %s mentions --%s, which no command declares", c.Name, m[1])
			}
		}
	}
}
