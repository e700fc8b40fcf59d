package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/mutants"
	"github.com/galaxy-stack/conform/matrix"
)

var _ = register(&command{
	Name:      "matrix",
	UsageLine: "conform matrix [--guarantees] [--json]",
	Short:     "list the matrix items: id, area, scope, state and title; or the guarantees they check",
	Long: `Matrix lists the items conform certifies: id, area, scope, whether the item
runs in this version or is planned, and its title. --json adds each item's
guarantee, the canonical tools its scenarios call and the keys of the
"Required host guarantees" sentences it checks.

Scope says whose rule an item certifies: host (a duty of the host under test;
some mutant of the reference host fails it), core (a rule of conform's bundled
core runtime exercised through the host; some named core fault fails it), or
host+core. conform selftest shows both.

--guarantees lists every sentence of the seed's "Required host guarantees"
with the items that check it; a sentence no runnable item checks says so.`,
	Run: func(fs *flag.FlagSet, stdout, stderr io.Writer) func([]string) error {
		asJSON := fs.Bool("json", false, "print the list as JSON")
		traces := fs.Bool("guarantees", false, "list the guarantee sentences and the items that check them")
		return func(args []string) error {
			if len(args) > 0 {
				return usagef("matrix: unexpected arguments %q", args)
			}
			if *traces {
				return printTraces(stdout, *asJSON)
			}
			items := matrix.Items()
			if *asJSON {
				return writeJSON(stdout, items)
			}
			tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tAREA\tSCOPE\tSTATE\tTITLE")
			runnable := 0
			for _, it := range items {
				state := "planned"
				if it.Runnable {
					state = "runnable"
					runnable++
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", it.Ref(), it.Area, it.Scope, state, it.Title)
			}
			tw.Flush()
			fmt.Fprintf(stdout, "\n%d of %d items runnable. 'conform matrix --json' adds guarantees and tools; --guarantees traces the seed's sentences.\n", runnable, len(items))
			return nil
		}
	},
})

// printTraces lists each guarantee sentence with the items that check it.
func printTraces(w io.Writer, asJSON bool) error {
	traces := matrix.Traces()
	if asJSON {
		return writeJSON(w, traces)
	}
	unchecked := 0
	section := ""
	for _, tr := range traces {
		if tr.Section != section {
			if section != "" {
				fmt.Fprintln(w)
			}
			section = tr.Section
			fmt.Fprintf(w, "%s\n", section)
		}
		checked := "not checked by a runnable item yet"
		if len(tr.Runnable) > 0 {
			checked = "items " + joinInts(tr.Runnable)
		} else {
			unchecked++
		}
		if planned := len(tr.Items) - len(tr.Runnable); planned > 0 {
			checked += fmt.Sprintf(" (planned: %s)", joinInts(minus(tr.Items, tr.Runnable)))
		}
		fmt.Fprintf(w, "  %-4s %s\n       %s\n", tr.Key, tr.Text, checked)
	}
	fmt.Fprintf(w, "\n%d of %d sentences checked by a runnable item.\n", len(traces)-unchecked, len(traces))
	return nil
}

func joinInts(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = matrix.RefOf(id)
	}
	return strings.Join(s, ", ")
}

// minus returns the IDs of a that are not in b.
func minus(a, b []int) []int {
	var out []int
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

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
