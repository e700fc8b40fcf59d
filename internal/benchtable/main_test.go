package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `goos: linux
goarch: amd64
pkg: github.com/galaxy-stack/conform/core/checkpoint
BenchmarkContentHash-2   	    2000	    688127 ns/op	      2680 canonical-bytes	    176842 jcs-sha-ns	        96.48 jcs-sha/sha	      1833 sha-ns
pkg: github.com/galaxy-stack/conform/hosts/reference
BenchmarkCommandOutputRSS-2   	       3	 328601852 ns/op	         4.859 harness-rss-growth-MiB	         3.281 host-rss-growth-MiB
PASS
`

func TestTableJudgesEachFigureByItsGoal(t *testing.T) {
	var out bytes.Buffer
	err := run(nil, strings.NewReader(sample), &out)
	table := out.String()
	for _, want := range []string{
		"| checkpoint content hash (canonical JSON + SHA-256) | 96.5 jcs-sha/sha (floor 1833 sha-ns) | SHA-256 alone of the same bytes (sha-ns) | ≤ 3 | not met |",
		"| 3.28 host-rss-growth-MiB | — | ≤ 16 | met |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if err == nil || !strings.Contains(err.Error(), "BenchmarkProcessStart version/hello") {
		t.Errorf("figures with no benchmark output must be an error naming them; got %v", err)
	}
	if !strings.Contains(table, "| not run |") {
		t.Errorf("a figure with no output is not marked not run:\n%s", table)
	}
}

func TestEveryFigureHasACommandForItsBenchmark(t *testing.T) {
	for _, f := range figures {
		name := strings.TrimPrefix(f.Bench, "Benchmark")
		if !strings.Contains(f.Command, "-bench "+name) {
			t.Errorf("%s %s: command %q does not run that benchmark", f.Bench, f.Unit, f.Command)
		}
	}
}

func TestSyntaxErrorIsReported(t *testing.T) {
	var out bytes.Buffer
	if err := run(nil, strings.NewReader("BenchmarkX-2 10 notanumber ns/op\n"), &out); err == nil {
		t.Error("a benchmark line that does not parse was accepted")
	}
}

func TestCommandsAreListedOnce(t *testing.T) {
	cs := commandLines()
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c] {
			t.Errorf("command listed twice: %s", c)
		}
		seen[c] = true
	}
	for _, f := range figures {
		if !seen[f.Command] {
			t.Errorf("command of %s %s not listed", f.Bench, f.Unit)
		}
	}
}

// TestBenchmarksDocNamesEveryFigure keeps BENCHMARKS.md and the figure
// table together: every figure's description and command are in it.
func TestBenchmarksDocNamesEveryFigure(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "BENCHMARKS.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figures {
		for _, want := range []string{"| " + f.What + " |", "`" + f.Command + "`"} {
			if !bytes.Contains(doc, []byte(want)) {
				t.Errorf("BENCHMARKS.md lacks %q: paste the table `make bench` prints into it", want)
			}
		}
	}
}
