// Command gendoc writes the host author's reference from the tool catalog
// and from a live run of the reference host: one page per tool under
// hosts/wire/tools/, their index (tools/README.md), hosts/wire/catalog.json,
// the catalog exactly as initialize sends it, and the recorded envelopes of
// hosts/wire/PROTOCOL.md (the JSON block after each "<!-- recorded: NAME -->").
//
// Run it from anywhere inside the module after changing the catalog, the
// effect profile, notes.go, scenarios.go or the reference host:
//
//	go run ./hosts/wire/internal/gendoc
//
// `go test ./hosts/wire/internal/gendoc` fails when the committed files
// differ from what it would write, and replays every worked example
// against a live reference host.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/galaxy-stack/conform/hosts/builtin"
)

func main() {
	// The reference host re-executes this binary as its containment probe
	// helper.
	builtin.MaybeServe()
	err := run(context.Background())
	prober().Probe() // no probe helper outlives the generator
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendoc:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	dir, err := wireDir()
	if err != nil {
		return err
	}
	files, err := generate(ctx, dir)
	if err != nil {
		return err
	}
	if err := removeStale(dir, files); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("gendoc: wrote %d files under %s\n", len(files), dir)
	return nil
}

// removeStale deletes generated tool pages that the catalog no longer has.
func removeStale(dir string, files map[string][]byte) error {
	pages, err := filepath.Glob(filepath.Join(dir, toolsDir, "*.md"))
	if err != nil {
		return err
	}
	for _, p := range pages {
		rel, _ := filepath.Rel(dir, p)
		if _, ok := files[filepath.ToSlash(rel)]; !ok {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// wireDir finds hosts/wire from the module root above the working
// directory.
func wireDir() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, "hosts", "wire"), nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", errors.New("run gendoc inside the conform module (no go.mod above the working directory)")
		}
		d = parent
	}
}
