// Command mutationreport writes MUTATION.md from the gremlins results that
// .ci/mutation.sh keeps: one <pkg>.json (gremlins unleash -o), <pkg>.seconds
// (wall time) and <pkg>.only (the file filter, if any) per package, the
// package path spelt with underscores. Every surviving mutant is listed with
// the explanation of the -explain file, a line per mutant:
//
//	core/run/gate.go:212:22 CONDITIONALS_BOUNDARY equivalent: why
//
// A survivor without one is marked UNEXPLAINED, so the report shows what
// still needs a test or a reason.
//
// Usage:
//
//	go run ./internal/mutationreport -dir .bin/mutation -explain .ci/mutation-equivalent.txt >MUTATION.md
//
// With -before, a second table gives the efficacy of earlier results (kept
// from a run before new tests) beside the new one.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// result is the part of gremlins' JSON output the report reads.
type result struct {
	Files []struct {
		FileName  string `json:"file_name"`
		Mutations []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
			Line   int    `json:"line"`
			Column int    `json:"column"`
		} `json:"mutations"`
	} `json:"files"`
}

type survivor struct{ key, mutator string }

type pkgReport struct {
	pkg, only                           string
	seconds                             string
	killed, lived, notCovered, timedOut int
	notViable, total                    int
	survivors                           []survivor
	// files holds the files gremlins mutated, package-qualified.
	files map[string]bool
}

func main() {
	dir := flag.String("dir", ".bin/mutation", "directory of the gremlins results")
	explain := flag.String("explain", "", "file of explanations, one `file:line:col MUTATOR reason` a line")
	before := flag.String("before", "", "directory of earlier results of the same form, shown beside the new ones")
	notes := flag.String("notes", "", "Markdown file appended to the report (what was not measured, and why)")
	flag.Parse()
	if err := run(os.Stdout, *dir, *explain, *before, *notes); err != nil {
		fmt.Fprintln(os.Stderr, "mutationreport:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, dir, explainPath, beforeDir, notesPath string) error {
	reasons, err := readExplanations(explainPath)
	if err != nil {
		return err
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return fmt.Errorf("no gremlins results in %q: run .ci/mutation.sh first", dir)
	}
	sort.Strings(paths)
	var reports []pkgReport
	for _, p := range paths {
		r, err := readPackage(p)
		if err != nil {
			return err
		}
		reports = append(reports, r)
	}
	before := map[string]pkgReport{}
	if beforeDir != "" {
		paths, err := filepath.Glob(filepath.Join(beforeDir, "*.json"))
		if err != nil {
			return err
		}
		for _, p := range paths {
			r, err := readPackage(p)
			if err != nil {
				return err
			}
			before[r.pkg] = r
		}
	}
	stale := staleExplanations(reports, reasons)
	for _, k := range stale {
		fmt.Fprintf(os.Stderr, "mutationreport: %s explains a mutant that did not survive: remove the line from %s\n", k, explainPath)
	}
	write(w, reports, reasons, before, stale)
	if notesPath != "" {
		notes, err := os.ReadFile(notesPath)
		if err != nil {
			return fmt.Errorf("read notes: %w", err)
		}
		fmt.Fprintf(w, "\n%s", notes)
	}
	return nil
}

// staleExplanations lists the explanations of mutants in files the
// reports mutated that are not among their survivors: the mutant is killed
// now, or the code moved, so the line no longer explains anything.
func staleExplanations(reports []pkgReport, reasons map[string]string) []string {
	live := map[string]bool{}
	mutated := map[string]bool{}
	for _, r := range reports {
		for _, s := range r.survivors {
			live[s.key+" "+s.mutator] = true
		}
		for f := range r.files {
			mutated[f] = true
		}
	}
	var out []string
	for k := range reasons {
		file, _, _ := splitKey(strings.SplitN(k, " ", 2)[0])
		if mutated[file] && !live[k] {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		ki, kj := strings.Fields(out[i])[0], strings.Fields(out[j])[0]
		if ki != kj {
			return lessKey(ki, kj)
		}
		return out[i] < out[j]
	})
	return out
}

func readExplanations(path string) (map[string]string, error) {
	out := map[string]string{}
	if path == "" {
		return out, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read explanations: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, " ", 3)
		if len(fields) < 3 {
			return nil, fmt.Errorf("%s: %q: want `file:line:col MUTATOR reason`", path, line)
		}
		out[fields[0]+" "+fields[1]] = fields[2]
	}
	return out, sc.Err()
}

func readPackage(path string) (pkgReport, error) {
	base := strings.TrimSuffix(path, ".json")
	pkg := strings.ReplaceAll(filepath.Base(base), "_", "/")
	r := pkgReport{pkg: pkg, seconds: readTrimmed(base + ".seconds"), only: readTrimmed(base + ".only"), files: map[string]bool{}}
	data, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	var res result
	if err := json.Unmarshal(data, &res); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	for _, f := range res.Files {
		r.files[pkg+"/"+f.FileName] = true
		for _, m := range f.Mutations {
			r.total++
			key := fmt.Sprintf("%s/%s:%d:%d", pkg, f.FileName, m.Line, m.Column)
			switch m.Status {
			case "KILLED":
				r.killed++
			case "LIVED":
				r.lived++
				r.survivors = append(r.survivors, survivor{key, m.Type})
			case "NOT COVERED":
				r.notCovered++
			case "TIMED OUT":
				r.timedOut++
			case "NOT VIABLE":
				r.notViable++
			}
		}
	}
	sort.Slice(r.survivors, func(i, j int) bool { return lessKey(r.survivors[i].key, r.survivors[j].key) })
	return r, nil
}

// lessKey orders file:line:col keys by file, then numerically by line and
// column.
func lessKey(a, b string) bool {
	fa, la, ca := splitKey(a)
	fb, lb, cb := splitKey(b)
	if fa != fb {
		return fa < fb
	}
	if la != lb {
		return la < lb
	}
	return ca < cb
}

func splitKey(k string) (file string, line, col int) {
	parts := strings.Split(k, ":")
	if len(parts) != 3 {
		return k, 0, 0
	}
	fmt.Sscan(parts[1], &line)
	fmt.Sscan(parts[2], &col)
	return parts[0], line, col
}

func readTrimmed(path string) string {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func percent(n, d int) string {
	if d == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(n)/float64(d))
}
