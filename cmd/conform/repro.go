package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix/runs"
)

// reproDirectory is where conform run writes its repros: --repro-dir, or
// repro/ beside --json-report, or "" for none. A path that is there and is
// not a directory (a symbolic link included) is refused.
func (f *runFlags) reproDirectory() (string, error) {
	dir := f.reproDir
	if dir == "" && *f.reports.json != "" && f.repeat <= 1 && f.campaign == "" {
		dir = filepath.Join(filepath.Dir(*f.reports.json), "repro")
	}
	if dir == "" {
		return "", nil
	}
	if f.campaign != "" {
		return "", usagef("run: --repro-dir applies to fixtures, not to a campaign")
	}
	return dir, checkReproDir("run", dir)
}

// checkReproDir refuses a repro directory that is there and is not a
// directory, a symbolic link included.
func checkReproDir(cmd, dir string) error {
	st, err := os.Lstat(dir)
	switch {
	case err == nil && st.Mode()&fs.ModeSymlink != 0:
		return usagef("%s: --repro-dir %s is a symbolic link, which conform does not follow: name the directory itself", cmd, dir)
	case err == nil && !st.IsDir():
		return usagef("%s: --repro-dir %s is not a directory", cmd, dir)
	}
	return nil
}

// printRepros names the repros written (on standard error with --json,
// whose standard output is the JSON alone) and those that could not be.
func printRepros(res *runs.Result, asJSON bool, out streams) {
	w := out.stdout
	if asJSON {
		w = out.stderr
	}
	for _, p := range res.Repros {
		fmt.Fprintf(w, "repro: %s\n", termsafe.Line(p))
	}
	for _, err := range res.ReproErrors {
		fmt.Fprintf(out.stderr, "conform: %s\n", termsafe.String(err.Error()))
	}
}
