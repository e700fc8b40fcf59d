// Package floor builds the programs conform's benchmarks measure against:
// a bare Go binary that prints a line and exits, a line-echo child that
// answers every JSON-RPC request with its own params, and the conform
// binary itself. A benchmark reports its figure as a ratio to one of these
// floors, measured in the same process and sitting, so that the figure
// survives a change of machine or load.
//
// Each builder runs `go build` into a directory the caller owns (a
// benchmark's b.TempDir), so nothing outlives the benchmark.
package floor

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// helloSource is the bare process: what any Go binary pays to start.
const helloSource = `package main

import "os"

func main() { os.Stdout.WriteString("hello\n") }
`

// echoSource answers each newline-delimited JSON-RPC request with a
// response whose result is the request's params, and ignores
// notifications: the least a host can do per message over the same pipes
// and framer.
const echoSource = `package main

import (
	"bufio"
	"encoding/json"
	"os"
)

func main() {
	r := bufio.NewReaderSize(os.Stdin, 64<<10)
	w := bufio.NewWriter(os.Stdout)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 1 {
			var m struct {
				ID     json.RawMessage ` + "`json:\"id\"`" + `
				Params json.RawMessage ` + "`json:\"params\"`" + `
			}
			if json.Unmarshal(line, &m) == nil && m.ID != nil {
				if m.Params == nil {
					m.Params = json.RawMessage("null")
				}
				w.WriteString(` + "`{\"jsonrpc\":\"2.0\",\"id\":`" + `)
				w.Write(m.ID)
				w.WriteString(` + "`,\"result\":`" + `)
				w.Write(m.Params)
				w.WriteString("}\n")
				w.Flush()
			}
		}
		if err != nil {
			return
		}
	}
}
`

// Hello builds the bare Go binary into dir and returns its path.
func Hello(tb testing.TB, dir string) string { return buildSource(tb, dir, "hello", helloSource) }

// Echo builds the line-echo child into dir and returns its path.
func Echo(tb testing.TB, dir string) string { return buildSource(tb, dir, "echo", echoSource) }

// Conform builds ./cmd/conform of this module into dir, as a user would
// build it, and returns its path.
func Conform(tb testing.TB, dir string) string {
	tb.Helper()
	out := filepath.Join(dir, "conform")
	goBuild(tb, "", out, "github.com/galaxy-stack/conform/cmd/conform")
	return out
}

func buildSource(tb testing.TB, dir, name, src string) string {
	tb.Helper()
	srcDir := filepath.Join(dir, name+"-src")
	if err := os.MkdirAll(srcDir, 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(srcDir, "go.mod"), []byte("module "+name+"\n\ngo 1.22\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(srcDir, "main.go"), []byte(src), 0o644); err != nil {
		tb.Fatal(err)
	}
	out := filepath.Join(dir, name)
	goBuild(tb, srcDir, out, ".")
	return out
}

func goBuild(tb testing.TB, dir, out, pkg string) {
	tb.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		tb.Skipf("the go command is needed to build the floor binaries: %v", err)
	}
	cmd := exec.Command(gobin, "build", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
}

// Run starts argv, waits for it to exit and returns how long that took
// and the CPU time (user and system) the process used, which a loaded
// machine moves far less than the wall time; a failed run fails tb.
func Run(tb testing.TB, argv ...string) (wall, cpu time.Duration) {
	tb.Helper()
	start := time.Now()
	cmd := exec.Command(argv[0], argv[1:]...)
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("%s: %v\n%s", argv, err, b)
	}
	return time.Since(start), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// Samples collects durations and reports their median, the figure the
// benchmarks compare (a mean would let one descheduled sample on a loaded
// machine move the ratio).
type Samples []time.Duration

// Median returns the median sample, or 0 when there is none.
func (s Samples) Median() time.Duration {
	if len(s) == 0 {
		return 0
	}
	c := slices.Clone(s)
	slices.Sort(c)
	return c[len(c)/2]
}

// Ms returns d in milliseconds, the unit b.ReportMetric figures use here.
func Ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Ratio returns a/b, or 0 when b is zero.
func Ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// String names the samples' median for a failure message.
func (s Samples) String() string { return fmt.Sprintf("median %s of %d", s.Median(), len(s)) }

// Median returns the median of xs, or 0 when there is none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	c := slices.Clone(xs)
	slices.Sort(c)
	return c[len(c)/2]
}
