package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// A command is one entry of conform's command table, after cmd/go's
// base.Command: its usage, help text and flags are data, so that `conform
// help CMD` lists the flags without running anything, and every command
// is parsed by one parser (exec) under one exit-status rule (main1).
// Command files build entries with [def.command].
type command struct {
	Name      string
	UsageLine string
	Short     string
	Long      string
	// Commands are the subcommands, chosen by the first argument; a
	// command with subcommands has neither flags nor a run of its own.
	Commands []*command
	// Interspersed lets flags follow positional arguments, so that both
	// `run --host H a.json` and `run a.json --host H` work.
	Interspersed bool
	// OwnParser hands the arguments to run unparsed: the command parses
	// them itself with the same declaration (host serve, whose parser
	// builtin.ParseServe is shared with the re-executed host). run returns
	// flag.ErrHelp for -h.
	OwnParser bool
	// NoArgs refuses positional arguments: the command takes flags only.
	NoArgs bool

	// declare declares the command's flags on fs and returns their values.
	declare func(fs *flag.FlagSet) any
	// run runs the command with the values declare returned and the
	// positional arguments.
	run func(flags any, args []string, out streams) error
}

// streams are where a command writes.
type streams struct{ stdout, stderr io.Writer }

// noFlags is the flag set of a command without flags.
type noFlags struct{}

// A def declares a command whose flags are held in an F: Flags declares
// them on a flag set and returns where they are stored (nil: no flags), and
// Run runs the command with them. Only Run does anything.
type def[F any] struct {
	Name, UsageLine, Short, Long string
	Commands                     []*command
	Interspersed, OwnParser      bool
	NoArgs                       bool
	Flags                        func(fs *flag.FlagSet) *F
	Run                          func(f *F, args []string, out streams) error
}

// command is d's entry in the command table.
func (d def[F]) command() *command {
	c := &command{
		Name: d.Name, UsageLine: d.UsageLine, Short: d.Short, Long: d.Long,
		Commands: d.Commands, Interspersed: d.Interspersed, OwnParser: d.OwnParser, NoArgs: d.NoArgs,
		declare: func(fs *flag.FlagSet) any {
			if d.Flags == nil {
				return new(F)
			}
			return d.Flags(fs)
		},
	}
	if d.Run != nil {
		c.run = func(f any, args []string, out streams) error { return d.Run(f.(*F), args, out) }
	}
	return c
}

var commands []*command

// order is the order of commands in help; unlisted ones come last.
var order = []string{"certify", "run", "compare", "report", "verify", "import", "golden", "selftest", "matrix", "tools", "host", "version"}

// register adds d to the command table.
func register[F any](d def[F]) bool {
	commands = append(commands, d.command())
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

func lookup(cmds []*command, name string) *command {
	for _, c := range cmds {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// isHelpFlag reports whether arg asks for help as a flag.
func isHelpFlag(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "--h":
		return true
	}
	return false
}

// dispatch runs the command args name. The exit-status rule (main1): help
// asked for (`conform help [CMD]`, `conform -h`, `conform CMD -h`) goes to
// stdout and succeeds; an invocation mistake (no command, an unknown
// command or help topic, a bad flag or argument) is a usage error, exit 2.
func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		mainUsage(stderr)
		return usagef("no command given")
	}
	name := args[0]
	if name == "help" || isHelpFlag(name) {
		return help(args[1:], stdout)
	}
	c := lookup(commands, name)
	if c == nil {
		return usagef("unknown command %q; run 'conform help'", name)
	}
	return c.exec(c, c.Name, args[1:], streams{stdout, stderr})
}

// help prints the help asked for: the main help, or a command's (`help
// host serve` is the help of host).
func help(topic []string, stdout io.Writer) error {
	if len(topic) == 0 {
		mainUsage(stdout)
		return nil
	}
	c := lookup(commands, topic[0])
	if c == nil || len(topic) > 2 || len(topic) == 2 && lookup(c.Commands, topic[1]) == nil {
		return usagef("unknown help topic %q; run 'conform help'", strings.Join(topic, " "))
	}
	commandUsage(c, stdout)
	return nil
}

// exec parses args by c's table entry and runs c; top is the command named
// on the command line, whose help `conform CMD -h` prints, and path names c
// in messages ("run", "host mutants").
func (c *command) exec(top *command, path string, args []string, out streams) error {
	if len(c.Commands) > 0 {
		if len(args) == 0 || !isHelpFlag(args[0]) && lookup(c.Commands, args[0]) == nil {
			what := "want a subcommand"
			if len(args) > 0 {
				what = fmt.Sprintf("unknown subcommand %q", args[0])
			}
			return usagef("%s: %s (%s)\nusage: %s\nRun 'conform help %s' for details.", path, what, subNames(c), c.UsageLine, top.Name)
		}
		if isHelpFlag(args[0]) {
			commandUsage(top, out.stdout)
			return nil
		}
		return lookup(c.Commands, args[0]).exec(top, path+" "+args[0], args[1:], out)
	}
	fs := flag.NewFlagSet("conform "+path, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	flags := c.declare(fs)
	pos := args
	var err error
	if !c.OwnParser {
		pos, err = parseFlags(fs, args, c.Interspersed)
	}
	if err == nil && c.NoArgs && len(pos) > 0 {
		return usagef("%s: unexpected arguments %q\nusage: %s\nRun 'conform help %s' for details.", path, pos, c.UsageLine, top.Name)
	}
	if err == nil {
		err = c.run(flags, pos, out)
	}
	if errors.Is(err, flag.ErrHelp) {
		commandUsage(top, out.stdout)
		return nil
	}
	var fe *flagError
	if errors.As(err, &fe) {
		return usagef("%s: %v\nusage: %s\nRun 'conform help %s' for details.", path, fe.err, c.UsageLine, top.Name)
	}
	return err
}

// flagError is a flag the flag package refused.
type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }

// parseFlags parses the flags in args and returns the positional
// arguments. Unless interspersed, flags end at the first positional
// argument, as the flag package has it; with interspersed, they may follow
// positional arguments too, up to a "--".
func parseFlags(fs *flag.FlagSet, args []string, interspersed bool) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &flagError{err}
		}
		if !interspersed || fs.NArg() == 0 {
			return append(pos, fs.Args()...), nil
		}
		// fs.Parse consumed a "--" if it stopped at one.
		if len(fs.Args()) < len(args) && args[len(args)-len(fs.Args())-1] == "--" {
			return append(pos, fs.Args()...), nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// subNames lists c's subcommands.
func subNames(c *command) string {
	names := make([]string, len(c.Commands))
	for i, s := range c.Commands {
		names[i] = s.Name
	}
	return strings.Join(names, " or ")
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
invocation itself is wrong (no command, an unknown command or help topic, a
bad flag or argument, a malformed fixture, a host command not found or not
executable, a report path not writable); 130 or 143 SIGINT or
SIGTERM stopped the run (the finished results are reported, marked
interrupted).

Help asked for ('conform help', 'conform help <command>', 'conform
<command> -h') is printed on standard output, exit 0; a usage mistake
prints the error and the usage line on standard error, exit 2.

Run 'conform help <command>' for more about a command.
`)
}

// commandUsage prints c's help: usage, text and flags, then those of its
// subcommands. Nothing is run: the flags come from the table.
func commandUsage(c *command, w io.Writer) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.UsageLine, strings.TrimSpace(c.Long))
	printFlags(c, "Flags:", w)
	for _, s := range c.Commands {
		printFlags(s, "Flags of "+c.Name+" "+s.Name+":", w)
	}
}

// printFlags lists the flags c declares, under heading, if it has any.
func printFlags(c *command, heading string, w io.Writer) {
	if c.declare == nil {
		return
	}
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	c.declare(fs)
	has := false
	fs.VisitAll(func(*flag.Flag) { has = true })
	if has {
		fmt.Fprintf(w, "\n%s\n", heading)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}
