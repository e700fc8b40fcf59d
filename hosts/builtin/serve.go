package builtin

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// ServeUsage is the usage line of `conform host serve`.
const ServeUsage = "conform host serve NAME [--mutant MUTANT | --variant VARIANT]"

// A UsageError is a `host serve` request that is malformed or names an
// unknown host or mutant. conform exits 2 on it, whether the request came
// through its command table or was served by [MaybeServe].
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{fmt.Sprintf(format, args...)}
}

// ServeFlags declares the flags of `host serve` on fs and returns where
// --mutant is stored.
func ServeFlags(fs *flag.FlagSet) *string {
	fs.String("variant", "", "serve the reference host with the named permitted variation `VARIANT` (see 'conform selftest --list')")
	return fs.String("mutant", "", "serve the reference host with the named fault `MUTANT` (see 'conform host mutants')")
}

// ParseServe parses the arguments that follow `host serve`: the name of a
// built-in host and, before or after it, --mutant MUTANT (or
// --mutant=MUTANT, with one dash or two). It is the one parser of the
// request, used by the conform command table and by [MaybeServe] alike.
// It returns flag.ErrHelp for -h or --help, and a *UsageError, which
// names what is known, for anything else it cannot serve.
func ParseServe(args []string) (name, mutant string, err error) {
	name, mutant, _, err = ParseServeVariant(args)
	return name, mutant, err
}

// ParseServeVariant is [ParseServe] that also returns --variant VARIANT.
func ParseServeVariant(args []string) (name, mutant, variant string, err error) {
	fs := flag.NewFlagSet("conform host serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	m := ServeFlags(fs)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return "", "", "", err
			}
			return "", "", "", usagef("host serve: %v\nusage: %s", err, ServeUsage)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(pos) == 0:
		return "", "", "", usagef("host serve: name the built-in host to serve (%s)\nusage: %s", strings.Join(Names(), ", "), ServeUsage)
	case len(pos) > 1:
		return "", "", "", usagef("host serve: unexpected arguments %q\nusage: %s", pos[1:], ServeUsage)
	}
	v := fs.Lookup("variant").Value.String()
	if err := CheckOf(pos[0], *m, v); err != nil {
		return "", "", "", usagef("host serve: %v", err)
	}
	return pos[0], *m, v, nil
}

// ServeMain serves the request args (the arguments after `host serve`) on
// standard input and output and returns the exit status, by conform's
// rule: 0 once the harness shut the host down, or after -h printed the
// usage on stdout; 2, printing the error on stderr, for a request
// ParseServe refuses; 1 when serving failed.
func ServeMain(args []string, stdout, stderr io.Writer) int {
	name, mutant, variant, err := ParseServeVariant(args)
	var ue *UsageError
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(stdout, "usage: %s\nRun 'conform help host' for details.\n", ServeUsage)
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "conform:", err)
		return 2
	}
	if err := ServeHost(name, mutant, variant); err != nil {
		fmt.Fprintln(stderr, "conform: host serve:", err)
		return 1
	}
	return 0
}
