package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/internal/redact"
	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/internal/wsfs"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/scenariofile"
)

var _ = register(def[importFlags]{
	Name:      "import",
	UsageLine: "conform import FIXTURE.json|DIR... -o DIR [--force] [--max-fixture-size BYTES] [--max-fixture-files N]",
	Short:     "turn original JSON fixtures into txtar scenarios",
	Long: `Import writes, for every original JSON fixture given (a directory is walked
recursively for .json files), an equivalent txtar scenario in the output
directory: NAME.txtar for NAME.json, keeping the path under a directory
argument. Running either gives the same outcome and the same replay hash.

The scenario's scenario.json is the fixture document; every initial file
that txtar holds byte for byte (text that ends in a newline and has no line
starting "--") moves out to workspace/PATH, the rest stays in initialFiles.
The script is a comment: the scenario runs once, checked by the fixture's
oracle. Add harness commands to it (see 'conform help run' and package
matrix/scenariofile: conform-run, resume, status, error-code, tools,
effects, file, changes, replay-hash) to assert more.

A scenario is made to be shared: the value of every environment variable of
conform's whose name looks secret (…TOKEN, …SECRET…, …PASSWORD…, …KEY…,
AWS_…) is replaced in it by [REDACTED:$NAME], and the line printed for it
says so; such a scenario can then run differently from its fixture.

An existing output file is an error unless --force. A malformed fixture is
an invocation error (exit 2) naming the file and the JSON path. Below the
output directory nothing is followed: a symbolic link on the way to an output
file is an error, and --force replaces a link at the file itself, never what
it points to.`,
	Interspersed: true,
	Flags: func(fs *flag.FlagSet) *importFlags {
		f := &importFlags{}
		fs.StringVar(&f.out, "o", "", "write the scenarios into `DIR` (created if needed)")
		fs.BoolVar(&f.force, "force", false, "overwrite existing scenario files")
		fs.Int64Var(&f.maxSize, "max-fixture-size", fixture.DefaultMaxFileSize, "refuse fixture files larger than `BYTES`")
		fs.IntVar(&f.maxFiles, "max-fixture-files", fixture.DefaultMaxFiles, "refuse fixtures that declare more than `N` workspace files and entries")
		return f
	},
	Run: runImport,
})

// importFlags are the flags of conform import.
type importFlags struct {
	out      string
	force    bool
	maxSize  int64
	maxFiles int
}

// runImport runs conform import.
func runImport(f *importFlags, args []string, out streams) error {
	paths := args
	if f.out == "" {
		return usagef("import: -o DIR is required")
	}
	if len(paths) == 0 {
		return usagef("import: no fixture given\nusage: conform import FIXTURE.json... -o DIR")
	}
	fixture.MaxFileSize = f.maxSize
	if f.maxFiles <= 0 {
		return usagef("import: --max-fixture-files must be a positive number")
	}
	fixture.MaxFiles = f.maxFiles
	type job struct{ src, rel string }
	var jobs []job
	seen := map[string]string{}
	for _, p := range paths {
		fxs, err := fixture.Load(p) // checks every file before anything is written
		if err != nil {
			return loadError(err)
		}
		for _, fx := range fxs {
			rel := filepath.Base(fx.File)
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				if r, err := filepath.Rel(p, fx.File); err == nil {
					rel = r
				}
			}
			rel = filepath.ToSlash(strings.TrimSuffix(rel, filepath.Ext(rel)) + scenariofile.Ext)
			if prev, dup := seen[rel]; dup {
				return usagef("import: %s and %s would both be written to %s", prev, fx.File, filepath.Join(f.out, rel))
			}
			seen[rel] = fx.File
			jobs = append(jobs, job{fx.File, rel})
		}
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return usagef("import: %v", err)
	}
	root, err := wsfs.Open(f.out)
	if err != nil {
		return usagef("import: %v", err)
	}
	defer root.Close()
	for _, j := range jobs {
		dst := filepath.Join(f.out, filepath.FromSlash(j.rel))
		data, err := os.ReadFile(j.src)
		if err != nil {
			return usagef("import: %v", err)
		}
		ar, err := scenariofile.Import(j.src, data)
		if err != nil {
			return loadError(err)
		}
		if _, err := root.Lstat(j.rel); err == nil && !f.force {
			return usagef("import: %s exists (use --force to overwrite)", dst)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return usagef("import: %s: %v", f.out, err)
		}
		note := ""
		if red := redact.Values(string(ar)); red != string(ar) {
			ar, note = []byte(red), " (secret values redacted)"
		}
		if err := root.WriteFile(j.rel, ar, 0o644); err != nil {
			return usagef("import: %s: %v", f.out, err)
		}
		fmt.Fprintf(out.stdout, "%s -> %s%s\n", termsafe.Line(j.src), termsafe.Line(dst), note)
	}
	return nil
}
