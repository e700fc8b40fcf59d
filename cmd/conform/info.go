package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/mutants"
	"github.com/galaxy-stack/conform/matrix"
)

var _ = register(&command{
	Name:      "matrix",
	UsageLine: "conform matrix [--json]",
	Short:     "list the matrix items: id, title, area and guarantee",
	Long:      `Matrix lists the items conform certifies, with the guarantee each checks.`,
	Run: func(fs *flag.FlagSet, stdout, stderr io.Writer) func([]string) error {
		asJSON := fs.Bool("json", false, "print the list as JSON")
		return func(args []string) error {
			items := matrix.Items()
			if *asJSON {
				b, err := json.MarshalIndent(items, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintf(stdout, "%s\n", b)
				return nil
			}
			tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tAREA\tSTATE\tTITLE")
			runnable := 0
			for _, it := range items {
				state := "planned"
				if it.Runnable {
					state = "runnable"
					runnable++
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", it.ID, it.Area, state, it.Title)
			}
			tw.Flush()
			fmt.Fprintf(stdout, "\n%d of %d items runnable. 'conform matrix --json' includes each item's guarantee.\n", runnable, len(items))
			return nil
		}
	},
})

var _ = register(&command{
	Name:      "host",
	UsageLine: "conform host serve NAME [--mutant MUTANT] | conform host mutants [--json]",
	Short:     "serve a built-in host on stdin/stdout, or list the reference host's mutants",
	Long: `Host serve runs a built-in host (` + strings.Join(builtin.Names(), ", ") + `) speaking the host
protocol on standard input and output. conform starts it this way itself for
--host reference; it is also handy for trying the protocol by hand.

With --mutant, host serve runs a mutant of the reference host instead: the
reference host with one named fault that breaks one host guarantee.
conform certify --host reference --mutant NAME starts it this way.

Host mutants lists the mutants, one per line with what each does wrong;
with --json it prints each one's name, guarantee and description.`,
	Run: func(fs *flag.FlagSet, stdout, stderr io.Writer) func([]string) error {
		return func(args []string) error {
			if len(args) > 0 && args[0] == "mutants" {
				return listMutants(args[1:], stdout)
			}
			if len(args) < 2 || args[0] != "serve" {
				return usagef("usage: conform host serve NAME [--mutant MUTANT] | conform host mutants [--json] (built-in hosts: %v)", builtin.Names())
			}
			name, mutant := args[1], ""
			switch rest := args[2:]; {
			case len(rest) == 2 && (rest[0] == "--mutant" || rest[0] == "-mutant"):
				mutant = rest[1]
			case len(rest) == 1 && (strings.HasPrefix(rest[0], "--mutant=") || strings.HasPrefix(rest[0], "-mutant=")):
				_, mutant, _ = strings.Cut(rest[0], "=")
			case len(rest) != 0:
				return usagef("usage: conform host serve NAME [--mutant MUTANT]")
			}
			if !builtin.IsBuiltin(name) {
				return usagef("host serve: unknown built-in host %q (known: %v)", name, builtin.Names())
			}
			if mutant != "" || len(args) > 2 {
				if _, err := builtin.Handler(name, mutant); err != nil {
					return usagef("host serve: %v", err)
				}
			}
			return builtin.ServeMutant(name, mutant)
		}
	},
})

// listMutants prints the mutants of the reference host.
func listMutants(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("conform host mutants", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print the list as JSON")
	if err := fs.Parse(args); err != nil {
		return usagef("host mutants: %v\nusage: conform host mutants [--json]", err)
	}
	if fs.NArg() != 0 {
		return usagef("usage: conform host mutants [--json]")
	}
	all := mutants.All()
	if *asJSON {
		type entry struct {
			Name        string `json:"name"`
			Guarantee   string `json:"guarantee"`
			Description string `json:"description"`
		}
		out := make([]entry, len(all))
		for i, m := range all {
			out[i] = entry{m.Name, m.Guarantee, m.Description}
		}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return nil
	}
	rows := make([][2]string, len(all))
	for i, m := range all {
		rows[i] = [2]string{m.Name, m.Description}
	}
	describe(stdout, rows)
	fmt.Fprintf(stdout, "\n%d mutants of the reference host. Serve one with 'conform certify --host reference --mutant NAME'.\n", len(all))
	return nil
}

var _ = register(&command{
	Name:      "version",
	UsageLine: "conform version",
	Short:     "print conform's version and the matrix version",
	Long:      `Version prints conform's version and the version of the matrix it runs.`,
	Run: func(fs *flag.FlagSet, stdout, stderr io.Writer) func([]string) error {
		return func(args []string) error {
			fmt.Fprintf(stdout, "conform %s (matrix %s)\n", version, matrix.Version)
			return nil
		}
	},
})

// describe prints a two-column table.
func describe(w io.Writer, rows [][2]string) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", r[0], r[1])
	}
	tw.Flush()
}
