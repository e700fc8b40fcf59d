// Package runstest holds test support for code that loads runnables: copies
// of one of conform's own scenarios, to check that trust follows a file's
// bytes and not its path.
package runstest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/fixtures"
)

// OwnFixture is an embedded scenario whose model double calls run_command,
// as the path repro commands name it.
const OwnFixture = fixtures.MatrixDir + "/06-nonzero-exit-truncation/nonzero-exit.json"

// Copies writes, in a fresh directory, same.json (OwnFixture byte for byte
// as conform embeds it) and other.json (the same with one byte more), and
// returns their paths.
func Copies(t testing.TB) (same, other string) {
	t.Helper()
	data, err := fs.ReadFile(fixtures.Matrix(), strings.TrimPrefix(OwnFixture, fixtures.MatrixDir+"/"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	same, other = filepath.Join(dir, "same.json"), filepath.Join(dir, "other.json")
	if err := os.WriteFile(same, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return same, other
}
