package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/matrix/golden"
	"github.com/galaxy-stack/conform/matrix/lab"
)

var _ = register(def[goldenFlags]{
	Name:      "golden",
	UsageLine: "conform golden update [--root DIR] [--parallel N] [--timeout D]",
	Short:     "rewrite the golden transcripts of the shipped scenarios",
	Long: `Golden update runs every shipped scenario (fixtures/matrix/** and
fixtures/scenarios/**, .json and .txtar) against the reference host and
rewrites its golden transcript, golden/X/Y.json for fixtures/X/Y.*; golden
files whose scenario is gone are removed. Run it from the repository root (or
name it with --root) after adding or changing a scenario, and review the diff:
'go test ./matrix/golden' checks the files, and fails with "run conform golden update"
for a scenario without one. Flags may come before or after update.

No symbolic link under the root is followed: a golden/ or fixtures/ that is a
link, or a link on the way to a golden file (golden/scenarios pointing
elsewhere), is an error, and a link at a golden file is replaced, never
written through.`,
	Interspersed: true,
	Flags: func(fs *flag.FlagSet) *goldenFlags {
		f := &goldenFlags{}
		fs.StringVar(&f.root, "root", ".", "the repository root, holding fixtures/ and golden/")
		fs.IntVar(&f.parallel, "parallel", 2, "run up to `N` scenarios at once")
		f.timeout = addTimeoutFlag(fs)
		return f
	},
	Run: runGolden,
})

// goldenFlags are the flags of conform golden.
type goldenFlags struct {
	root     string
	parallel int
	timeout  *time.Duration
}

// runGolden runs conform golden.
func runGolden(f *goldenFlags, args []string, out streams) error {
	if len(args) != 1 || args[0] != "update" {
		return usagef("golden: want the subcommand update\nusage: conform golden update [--root DIR] [--parallel N] [--timeout D]")
	}
	for _, d := range []string{"fixtures", golden.Dir} {
		st, err := os.Lstat(filepath.Join(f.root, d))
		if err == nil && st.Mode()&fs.ModeSymlink != 0 {
			return usagef("golden update: %s is a symbolic link, which golden update does not follow: make it a directory", filepath.Join(f.root, d))
		}
		if err != nil || !st.IsDir() {
			return usagef("golden update: %s has no %s/ directory: run it from the repository root or pass --root", f.root, d)
		}
	}
	argv, err := builtin.Command("reference")
	if err != nil {
		return err
	}
	j, err := startJob(*f.timeout, true, out.stderr)
	if err != nil {
		return err
	}
	defer j.close()
	var written, removed []string
	j.await(func() {
		written, removed, err = golden.Update(j.ctx, f.root, lab.Options{Argv: argv, Commands: lab.ContainCommands}, f.parallel)
	})
	if stopped := j.interrupted(); stopped != nil {
		return stopped
	}
	if err != nil {
		return err
	}
	for _, r := range removed {
		fmt.Fprintf(out.stdout, "removed %s\n", r)
	}
	fmt.Fprintf(out.stdout, "wrote %d golden transcripts under %s\n", len(written), filepath.Join(f.root, golden.Dir))
	return nil
}
