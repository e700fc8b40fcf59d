package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/galaxy-stack/conform/hosts/builtin"
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
	UsageLine: "conform host serve NAME",
	Short:     "serve a built-in host over the host protocol on stdin/stdout",
	Long: `Host serve runs a built-in host (` + "reference" + `) speaking the host protocol on
standard input and output. conform starts it this way itself for
--host reference; it is also handy for trying the protocol by hand.`,
	Run: func(fs *flag.FlagSet, stdout, stderr io.Writer) func([]string) error {
		return func(args []string) error {
			if len(args) != 2 || args[0] != "serve" {
				return usagef("usage: conform host serve NAME (built-in hosts: %v)", builtin.Names())
			}
			if !builtin.IsBuiltin(args[1]) {
				return usagef("host serve: unknown built-in host %q (known: %v)", args[1], builtin.Names())
			}
			return builtin.Serve(args[1])
		}
	},
})

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
