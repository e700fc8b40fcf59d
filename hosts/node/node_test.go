// Package node tests the Node.js host of hosts/node: its own unit tests
// (node --test) and a short certification through a conform binary built
// from this checkout. It skips when node or the host's npm dependencies
// (make node) are missing.
package node

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostDir returns the absolute directory of the host, skipping the test when
// node or node_modules is absent — except under .ci/run (CONFORM_CI set),
// which installs both (make test runs make node), so that CI never passes
// by skipping the Node.js host.
func hostDir(t *testing.T) string {
	t.Helper()
	skip := t.Skip
	if os.Getenv("CONFORM_CI") != "" {
		skip = t.Fatal
	}
	if _, err := exec.LookPath("node"); err != nil {
		skip("node is not on PATH")
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "ajv")); err != nil {
		skip("hosts/node/node_modules is missing: run `make node` (npm ci --prefix hosts/node)")
	}
	return dir
}

func TestUnitTests(t *testing.T) {
	dir := hostDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "--test", "test/")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test failed: %v\n%s", err, out)
	}
}

func TestCertifySelection(t *testing.T) {
	dir := hostDir(t)
	if testing.Short() {
		t.Skip("builds conform and certifies; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "conform")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/galaxy-stack/conform/cmd/conform")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// From another directory: the host resolves its files from its own location.
	cmd := exec.CommandContext(ctx, bin, "certify", "--host", "node "+filepath.Join(dir, "host.mjs"), "--only", "1,2")
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("conform certify --only 1,2 against the Node.js host failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "2 passed, 0 failed") {
		t.Fatalf("want 2 passed, 0 failed; got:\n%s", out)
	}
}
