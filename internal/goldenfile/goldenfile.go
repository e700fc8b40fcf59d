// Package goldenfile compares what a test produced with a golden file under
// testdata, and rewrites the file when the test runs with -update (a flag
// this package adds to every test binary that imports it).
package goldenfile

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/galaxy-stack/conform/internal/atomicfile"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata from what the tests produce; review the diff before committing")

// Check compares got with the content of the golden file at path. Under
// -update it first writes got to path, creating the file's folder. The
// error shows how the two differ and names rewrite, the command that
// rewrites the file.
func Check(path, got, rewrite string) error {
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := atomicfile.WriteFile(path, []byte(got), 0o644); err != nil {
			return err
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w; run `%s` to create it", err, rewrite)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		return fmt.Errorf("%s is stale (-want +got):\n%s\nverify the diff, then run `%s`", path, d, rewrite)
	}
	return nil
}
