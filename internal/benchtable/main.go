// Command benchtable reads `go test -bench` output and prints the table of
// BENCHMARKS.md: each figure with its floor, its goal, the measured value
// and whether the goal is met. `make bench` runs the benchmarks and pipes
// their output here.
//
// Usage:
//
//	go run ./internal/benchtable [file ...]
//	go run ./internal/benchtable -commands
//
// With no file it reads standard input; -commands prints, one a line,
// the commands that measure the figures, each once. It exits 1 when a figure's
// benchmark did not run or its output does not parse, so that a renamed
// benchmark or metric does not leave a silently empty row.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

func main() {
	commands := flag.Bool("commands", false, "print the commands that measure the figures, one a line, and exit")
	flag.Parse()
	if *commands {
		for _, c := range commandLines() {
			fmt.Println(c)
		}
		return
	}
	if err := run(flag.Args(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(files []string, stdin io.Reader, stdout io.Writer) error {
	got := map[string]map[string]float64{}
	read := func(r io.Reader, name string) error {
		br := benchfmt.NewReader(r, name)
		for br.Scan() {
			switch rec := br.Result().(type) {
			case *benchfmt.SyntaxError:
				return rec
			case *benchfmt.Result:
				base := "Benchmark" + string(rec.Name.Base())
				if got[base] == nil {
					got[base] = map[string]float64{}
				}
				for _, v := range rec.Values {
					unit, val := v.Unit, v.Value
					if v.OrigUnit != "" {
						unit, val = v.OrigUnit, v.OrigValue
					}
					got[base][unit] = val
				}
			}
		}
		return br.Err()
	}
	if len(files) == 0 {
		if err := read(stdin, "<stdin>"); err != nil {
			return err
		}
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return err
		}
		err = read(fh, f)
		fh.Close()
		if err != nil {
			return err
		}
	}
	missing := render(stdout, got)
	if len(missing) > 0 {
		return fmt.Errorf("no figure for %s: run the benchmark with its command, or fix the figure table in internal/benchtable", strings.Join(missing, ", "))
	}
	return nil
}

// commandLines returns the figures' commands, each once, in table order.
func commandLines() []string {
	var out []string
	for _, f := range figures {
		if !slices.Contains(out, f.Command) {
			out = append(out, f.Command)
		}
	}
	return out
}

// render prints the table and returns the figures it found no value for.
func render(w io.Writer, got map[string]map[string]float64) (missing []string) {
	fmt.Fprintln(w, "| figure | measured | floor | goal | met | command |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- |")
	for _, f := range figures {
		v, ok := got[f.Bench][f.Unit]
		measured, met := "not run", "—"
		if ok {
			measured = fmt.Sprintf("%s %s", num(v), f.Unit)
			if fu, has := floorUnits[f.Unit]; has {
				if fv, ok := got[f.Bench][fu]; ok {
					measured += fmt.Sprintf(" (floor %s %s)", num(fv), fu)
				}
			}
			if f.Goal > 0 {
				met = "not met"
				if v <= f.Goal {
					met = "met"
				}
			} else {
				met = "tracked"
			}
		} else {
			missing = append(missing, f.Bench+" "+f.Unit)
		}
		goal := "—"
		if f.Goal > 0 {
			goal = "≤ " + strconv.FormatFloat(f.Goal, 'g', -1, 64)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | `%s` |\n", f.What, measured, f.Floor, goal, met, f.Command)
	}
	return missing
}

// num prints v with three significant digits at most, as the benchmarks
// are not more precise than that on a shared machine.
func num(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}
