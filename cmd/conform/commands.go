package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// A command is one entry of conform's command table; help text comes from
// the same table.
type command struct {
	Name      string
	UsageLine string
	Short     string
	Long      string
	// Flags declares the command's flags on fs and returns the function
	// that runs it with the remaining arguments.
	Run func(fs *flag.FlagSet, stdout, stderr io.Writer) func(args []string) error
}

var commands []*command

// order is the order of commands in help; unlisted ones come last.
var order = []string{"certify", "run", "import", "golden", "selftest", "matrix", "tools", "host", "version"}

func register(c *command) bool {
	commands = append(commands, c)
	sort.SliceStable(commands, func(i, j int) bool { return rankOf(commands[i].Name) < rankOf(commands[j].Name) })
	return true
}

func rankOf(name string) int {
	for i, n := range order {
		if n == name {
			return i
		}
	}
	return len(order)
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		mainUsage(stderr)
		return usagef("no command given")
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			c := lookup(args[1])
			if c == nil {
				return usagef("unknown help topic %q; run 'conform help'", args[1])
			}
			commandUsage(c, stdout)
			return nil
		}
		mainUsage(stdout)
		return nil
	}
	c := lookup(name)
	if c == nil {
		return usagef("unknown command %q; run 'conform help'", name)
	}
	fs := flag.NewFlagSet("conform "+c.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	run := c.Run(fs, stdout, stderr)
	if err := fs.Parse(args[1:]); err != nil {
		if err == flag.ErrHelp {
			commandUsage(c, stdout)
			return err
		}
		return usagef("%s: %v\nusage: %s\nRun 'conform help %s' for details.", c.Name, err, c.UsageLine, c.Name)
	}
	return run(fs.Args())
}

func mainUsage(w io.Writer) {
	fmt.Fprint(w, `conform certifies hosts of the AI Coder single-agent runtime: it drives a host
binary over the host protocol, runs the numbered host-conformance matrix and
the original lab fixtures with the core runtime and deterministic doubles, and
reports what passed.

Usage:

	conform <command> [arguments]

Commands:

`)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, c := range commands {
		fmt.Fprintf(tw, "\t%s\t%s\n", c.Name, c.Short)
	}
	tw.Flush()
	fmt.Fprint(w, `
Exit status: 0 everything required passed; 1 something failed; 2 the
invocation itself is wrong (bad flag, malformed fixture, host command not
found or not executable, report path not writable); 130 or 143 SIGINT or
SIGTERM stopped the run (the finished results are reported, marked
interrupted).

Run 'conform help <command>' for more about a command.
`)
}

func commandUsage(c *command, w io.Writer) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.UsageLine, strings.TrimSpace(c.Long))
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	c.Run(fs, io.Discard, io.Discard)
	has := false
	fs.VisitAll(func(*flag.Flag) { has = true })
	if has {
		fmt.Fprint(w, "\nFlags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}
