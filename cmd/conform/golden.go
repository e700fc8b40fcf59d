package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/galaxy-stack/conform/golden"
	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/matrix/lab"
)

var _ = register(&command{
	Name:      "golden",
	UsageLine: "conform golden update [--root DIR] [--parallel N]",
	Short:     "rewrite the golden transcripts of the shipped scenarios",
	Long: `Golden update runs every shipped scenario (fixtures/matrix/** and
fixtures/scenarios/**, .json and .txtar) against the reference host and
rewrites its golden transcript, golden/X/Y.json for fixtures/X/Y.*; golden
files whose scenario is gone are removed. Run it from the repository root (or
name it with --root) after adding or changing a scenario, and review the diff:
'go test ./golden' checks the files, and fails with "run conform golden update"
for a scenario without one.`,
	Run: func(flags *flag.FlagSet, stdout, stderr io.Writer) func([]string) error {
		root := flags.String("root", ".", "the repository root, holding fixtures/ and golden/")
		parallel := flags.Int("parallel", 2, "run up to `N` scenarios at once")
		timeout := addTimeoutFlag(flags)
		return func(args []string) error {
			if len(args) != 1 || args[0] != "update" {
				return usagef("golden: usage: conform golden update [--root DIR]")
			}
			for _, d := range []string{"fixtures", golden.Dir} {
				if st, err := os.Stat(filepath.Join(*root, d)); err != nil || !st.IsDir() {
					return usagef("golden update: %s has no %s/ directory: run it from the repository root or pass --root", *root, d)
				}
			}
			argv, err := builtin.Command("reference")
			if err != nil {
				return err
			}
			j, err := startJob(*timeout, true, stderr)
			if err != nil {
				return err
			}
			defer j.close()
			var written, removed []string
			j.await(func() { written, removed, err = golden.Update(j.ctx, *root, lab.Options{Argv: argv}, *parallel) })
			if stopped := j.interrupted(); stopped != nil {
				return stopped
			}
			if err != nil {
				return err
			}
			for _, r := range removed {
				fmt.Fprintf(stdout, "removed %s\n", r)
			}
			fmt.Fprintf(stdout, "wrote %d golden transcripts under %s\n", len(written), filepath.Join(*root, golden.Dir))
			return nil
		}
	},
})
