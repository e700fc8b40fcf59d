package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/mutants"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/reports"
)

var _ = register(def[matrixFlags]{
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
with the items that check it; a sentence no check can observe through the
protocol says why and where that is documented, and one no runnable item
checks yet says so.`,
	Flags: func(fs *flag.FlagSet) *matrixFlags {
		f := &matrixFlags{}
		fs.BoolVar(&f.asJSON, "json", false, "print the list as JSON")
		fs.BoolVar(&f.traces, "guarantees", false, "list the guarantee sentences and the items that check them")
		return f
	},
	NoArgs: true,
	Run:    runMatrix,
})

// matrixFlags are the flags of conform matrix.
type matrixFlags struct {
	asJSON bool
	traces bool
}

// runMatrix runs conform matrix.
func runMatrix(f *matrixFlags, _ []string, out streams) error {
	if f.traces {
		return printTraces(out.stdout, f.asJSON)
	}
	items := matrix.Items()
	if f.asJSON {
		return writeJSON(out.stdout, items)
	}
	tw := tabwriter.NewWriter(out.stdout, 0, 8, 2, ' ', 0)
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
	fmt.Fprintf(out.stdout, "\n%d of %d items runnable. 'conform matrix --json' adds guarantees and tools; --guarantees traces the seed's sentences.\n", runnable, len(items))
	return nil
}

// printTraces lists each guarantee sentence with the items that check it.
func printTraces(w io.Writer, asJSON bool) error {
	traces := matrix.Traces()
	if asJSON {
		return writeJSON(w, traces)
	}
	checkedN, uncheckableN := 0, 0
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
		switch {
		case tr.Checked():
			checked = "items " + joinInts(tr.Runnable)
			checkedN++
		case tr.Uncheckable != nil:
			checked = "uncheckable through the protocol: " + tr.Uncheckable.Reason + " (" + tr.Uncheckable.Documented + ")"
			uncheckableN++
		}
		if planned := len(tr.Items) - len(tr.Runnable); planned > 0 {
			checked += fmt.Sprintf(" (planned: %s)", joinInts(minus(tr.Items, tr.Runnable)))
		}
		fmt.Fprintf(w, "  %-4s %s\n       %s\n", tr.Key, tr.Text, checked)
	}
	fmt.Fprintf(w, "\n%d of %d sentences checked or explicitly uncheckable: %d checked by a runnable item, %d uncheckable through the protocol.\n",
		checkedN+uncheckableN, len(traces), checkedN, uncheckableN)
	return nil
}

// joinInts lists the references of items ids for a reader: "1, 13, R2".
func joinInts(ids []int) string { return joinRefs(ids, ", ") }

// joinRefs joins the references of items ids (matrix.RefOf) with sep.
func joinRefs(ids []int, sep string) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = matrix.RefOf(id)
	}
	return strings.Join(s, sep)
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

var _ = register(def[noFlags]{
	Name:      "host",
	UsageLine: "conform host serve NAME [--mutant MUTANT | --variant VARIANT] | conform host mutants [--json]",
	Short:     "serve a built-in host on stdin/stdout, or list the reference host's mutants",
	Long: `Host serve runs a built-in host (` + strings.Join(builtin.Names(), ", ") + `) speaking the host
protocol on standard input and output. conform starts it this way itself for
--host reference; it is also handy for trying the protocol by hand.

With --mutant, host serve runs a mutant of the reference host instead: the
reference host with one named fault that breaks one host guarantee.
conform certify --host reference --mutant NAME starts it this way.

With --variant, host serve runs a permitted variation of the reference host:
the reference host taking one choice the contract leaves to hosts the other
way (its own wording, member order, limits). Every item must pass it;
conform selftest --list lists them.

Host mutants lists the mutants, one per line with what each does wrong;
with --json it prints each one's name, guarantee and description.`,
	Commands: []*command{
		def[string]{
			Name:      "serve",
			UsageLine: builtin.ServeUsage,
			OwnParser: true,
			Flags:     builtin.ServeFlags,
			Run:       runHostServe,
		}.command(),
		def[hostMutantsFlags]{
			Name:      "mutants",
			UsageLine: "conform host mutants [--json]",
			Flags: func(fs *flag.FlagSet) *hostMutantsFlags {
				f := &hostMutantsFlags{}
				fs.BoolVar(&f.asJSON, "json", false, "print the list as JSON")
				return f
			},
			NoArgs: true,
			Run:    runHostMutants,
		}.command(),
	},
})

// runHostServe serves a built-in host. Its arguments are parsed by
// builtin.ParseServe, the parser builtin.MaybeServe uses when conform is
// re-executed as a host, so both refuse a request alike; the mutant flag
// it was handed is the table's declaration, for help.
func runHostServe(_ *string, args []string, _ streams) error {
	name, mutant, variant, err := builtin.ParseServeVariant(args)
	var ue *builtin.UsageError
	if errors.As(err, &ue) {
		return usagef("%s", ue.Msg)
	}
	if err != nil {
		return err
	}
	if err := builtin.ServeHost(name, mutant, variant); err != nil {
		return fmt.Errorf("host serve: %w", err)
	}
	return nil
}

// hostMutantsFlags are the flags of conform host mutants.
type hostMutantsFlags struct{ asJSON bool }

// runHostMutants prints the mutants of the reference host.
func runHostMutants(f *hostMutantsFlags, _ []string, out streams) error {
	all := mutants.All()
	if f.asJSON {
		type entry struct {
			Name        string `json:"name"`
			Guarantee   string `json:"guarantee"`
			Description string `json:"description"`
		}
		entries := make([]entry, len(all))
		for i, m := range all {
			entries[i] = entry{m.Name, m.Guarantee, m.Description}
		}
		return writeJSON(out.stdout, entries)
	}
	rows := make([][2]string, len(all))
	for i, m := range all {
		rows[i] = [2]string{m.Name, m.Description}
	}
	describe(out.stdout, rows)
	fmt.Fprintf(out.stdout, "\n%d mutants of the reference host. Serve one with 'conform certify --host reference --mutant NAME'.\n", len(all))
	return nil
}

var _ = register(def[noFlags]{
	Name:      "version",
	UsageLine: "conform version",
	Short:     "print conform's version, the matrix version and the commit",
	Long: `Version prints conform's version, the version of the matrix it runs and
the commit conform was built from, with "(modified)" when the tree had
local changes; the commit is "unknown" when the build recorded none (go
run, go install of a module version, a test binary). conform --version
prints the same.`,
	NoArgs: true,
	Run: func(_ *noFlags, _ []string, out streams) error {
		fmt.Fprint(out.stdout, versionText(reports.NewHarness()))
		return nil
	},
})

// versionText is what `conform version` prints for the build h.
func versionText(h reports.Harness) string {
	commit := h.Commit
	switch {
	case commit == "":
		commit = "unknown"
	case h.Modified:
		commit += " (modified)"
	}
	return fmt.Sprintf("conform %s (matrix %s)\ncommit: %s\n", h.Version, matrix.Version, commit)
}

// describe prints a two-column table.
func describe(w io.Writer, rows [][2]string) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", r[0], r[1])
	}
	tw.Flush()
}
