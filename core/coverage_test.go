package core_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

// The rule maps cite specs by name; these tests fail when a cited spec no
// longer exists, so a renamed or deleted spec cannot leave a map pointing
// at nothing. Each package's spec names come from a Ginkgo dry run of its
// suite (-ginkgo.dry-run -ginkgo.json-report), its plain tests from
// go test -list.

// aliases maps the package names the rule maps cite to directories
// (core/COVERAGE.md, "How to read a citation").
var aliases = map[string]string{
	"canon": "core/canon", "schema": "core/schema", "catalog": "core/catalog", "effects": "core/effects",
	"checkpoint": "core/checkpoint", "approval": "core/approval", "prompt": "core/prompt", "window": "core/window",
	"guard": "core/guard", "run": "core/run", "wire": "hosts/wire", "kit": "hosts/wire/kit", "reference": "hosts/reference",
	"refws": "hosts/reference/workspace", "refcmd": "hosts/reference/command",
	"dhost": "hosts/doubles", "dmodel": "doubles/model", "dstore": "doubles/store", "dclock": "doubles/clock",
}

// A citation is one spec a map names: its package directory and the
// segments of its Ginkgo path, "…" eliding text within a segment.
type citation struct {
	dir      string
	segments []string
	line     int
}

func (c citation) String() string {
	return fmt.Sprintf("line %d: %s: %q", c.line, c.dir, strings.Join(c.segments, " › "))
}

// citationRE matches `pkg: "A › B › C"` in core/COVERAGE.md.
var citationRE = regexp.MustCompile(`\b([a-z]+): "((?:[^"\\]|\\.)+)"`)

// testNameRE matches a plain Go test a map names.
var testNameRE = regexp.MustCompile("`?(Test[A-Z][A-Za-z0-9_]*)`?")

// parseCoverage reads the citations of core/COVERAGE.md.
func parseCoverage(t *testing.T, text string) []citation {
	var out []citation
	for i, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue // prose, such as the legend that shows the form
		}
		for _, m := range citationRE.FindAllStringSubmatch(line, -1) {
			dir, ok := aliases[m[1]]
			if !ok {
				t.Errorf("core/COVERAGE.md:%d: unknown package %q in %s; add it to the legend and to aliases", i+1, m[1], m[0])
				continue
			}
			segs := splitPath(strings.ReplaceAll(m[2], `\"`, `"`))
			if segs[0] == "" {
				// "› x" continues a container named earlier, loosely (the
				// same row or the rows above): only x is checked.
				segs = segs[1:]
			}
			out = append(out, citation{dir: dir, segments: segs, line: i + 1})
		}
	}
	return out
}

func splitPath(s string) []string {
	parts := strings.Split(s, "›")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// segmentRE turns a cited segment into a regular expression: "…" stands for
// any text, and a segment may be cut at either end.
func segmentRE(seg string) *regexp.Regexp {
	var b strings.Builder
	for i, p := range strings.Split(seg, "…") {
		if i > 0 {
			b.WriteString(".*")
		}
		b.WriteString(regexp.QuoteMeta(strings.TrimSpace(p)))
	}
	return regexp.MustCompile(b.String())
}

// specs is one package's spec paths (container texts and leaf) and plain
// test names.
type specs struct {
	paths [][]string
	tests []string
}

// matches reports whether some spec's path holds segments in a row, each
// cited segment found within the spec's one (a citation may leave out outer
// containers, name a container rather than a spec, and "…" elides text).
func (s specs) matches(segments []string) bool {
	res := make([]*regexp.Regexp, len(segments))
	for i, seg := range segments {
		res[i] = segmentRE(seg)
	}
	for _, p := range s.paths {
		for start := 0; start+len(res) <= len(p); start++ {
			ok := true
			for i, re := range res {
				if !re.MatchString(p[start+i]) {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// listSpecs runs a Ginkgo dry run of the suite in dir (a path from the
// module root) and lists its plain tests.
func listSpecs(t *testing.T, root, dir string) (specs, error) {
	var s specs
	suite, err := suiteFunc(filepath.Join(root, dir))
	if err != nil {
		return s, err
	}
	report := filepath.Join(t.TempDir(), "report.json")
	if suite != "" {
		cmd := exec.Command("go", "test", "./"+dir, "-count=1", "-run", "^"+suite+"$", "-ginkgo.dry-run", "-ginkgo.json-report="+report)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return s, fmt.Errorf("dry run of %s: %v\n%s", dir, err, out)
		}
		data, err := os.ReadFile(report)
		if err != nil {
			return s, err
		}
		var reports []types.Report
		if err := json.Unmarshal(data, &reports); err != nil {
			return s, fmt.Errorf("%s: %w", report, err)
		}
		for _, r := range reports {
			for _, sr := range r.SpecReports {
				if sr.LeafNodeType != types.NodeTypeIt {
					continue
				}
				s.paths = append(s.paths, append(slices.Clone(sr.ContainerHierarchyTexts), sr.LeafNodeText))
			}
		}
	}
	cmd := exec.Command("go", "test", "./"+dir, "-list", ".")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return s, fmt.Errorf("go test -list %s: %v", dir, err)
	}
	for _, l := range strings.Fields(string(out)) {
		if strings.HasPrefix(l, "Test") || strings.HasPrefix(l, "Fuzz") {
			s.tests = append(s.tests, l)
		}
	}
	return s, nil
}

// suiteFunc names the test function of dir that runs its Ginkgo specs
// (RunSpecs, or suite.Run of internal/suite), or "".
func suiteFunc(dir string) (string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return "", err
	}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			return "", err
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			found := false
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					switch fun := call.Fun.(type) {
					case *ast.Ident: // RunSpecs(t, …)
						found = fun.Name == "RunSpecs"
					case *ast.SelectorExpr: // suite.Run(t, …) of internal/suite
						x, ok := fun.X.(*ast.Ident)
						found = ok && x.Name == "suite" && fun.Sel.Name == "Run"
					}
				}
				return !found
			})
			if found {
				return fn.Name.Name, nil
			}
		}
	}
	return "", nil
}

// listed caches the specs of each package across the tests of this file.
var listed = struct {
	sync.Mutex
	specs map[string]specs
}{specs: map[string]specs{}}

// specIndex lists the specs of dirs, two packages at a time, each package
// once per test binary.
func specIndex(t *testing.T, root string, dirs []string) map[string]specs {
	idx := map[string]specs{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for _, d := range dirs {
		listed.Lock()
		s, ok := listed.specs[d]
		listed.Unlock()
		if ok {
			mu.Lock()
			idx[d] = s
			mu.Unlock()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			s, err := listSpecs(t, root, d)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("list the specs of %s: %v", d, err)
				return
			}
			idx[d] = s
			listed.Lock()
			listed.specs[d] = s
			listed.Unlock()
		}()
	}
	wg.Wait()
	return idx
}

func TestCoverageMapCitesExistingSpecs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a Ginkgo dry run of every cited package")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "core/COVERAGE.md"))
	if err != nil {
		t.Fatal(err)
	}
	cites := parseCoverage(t, string(data))
	if len(cites) < 400 {
		t.Fatalf("found only %d citations in core/COVERAGE.md; has the citation form changed?", len(cites))
	}
	var dirs []string
	for _, c := range cites {
		if !slices.Contains(dirs, c.dir) {
			dirs = append(dirs, c.dir)
		}
	}
	idx := specIndex(t, root, dirs)
	for _, c := range cites {
		s, ok := idx[c.dir]
		if ok && !s.matches(c.segments) {
			t.Errorf("core/COVERAGE.md %s names no spec; fix the citation or the spec name", c)
		}
	}
	checkTestNames(t, "core/COVERAGE.md", string(data), idx)
}

// checkTestNames fails for a plain test name in text that no listed
// package has.
func checkTestNames(t *testing.T, name, text string, idx map[string]specs) {
	for i, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		for _, m := range testNameRE.FindAllStringSubmatch(line, -1) {
			found := false
			for _, s := range idx {
				if slices.Contains(s.tests, m[1]) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s:%d: names %s, which no cited package has", name, i+1, m[1])
			}
		}
	}
}

// packageMaps are the per-package rule maps. In a table whose last column
// is headed "test" or "covered by", a quoted text in that column names a
// spec of the package (or a part of one, "…" eliding the rest), or of
// core/run after a "core/run" reference; quotes inside parentheses or
// backticks quote assertion messages and values, and a quote after
// "golden" names a golden file, so those are not checked.
var packageMaps = map[string]string{
	"core/guard/testdata/coverage.md":  "core/guard",
	"core/prompt/testdata/coverage.md": "core/prompt",
	"core/window/testdata/coverage.md": "core/window",
}

var quotedRE = regexp.MustCompile(`"((?:[^"\\]|\\.)+)"`)

// mapCitations returns the spec names a package map cites, each with its
// line and the package it belongs to.
func mapCitations(text, dir string) []citation {
	var out []citation
	checked := false
	for i, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "|") {
			checked = false
			continue
		}
		cells := strings.Split(strings.TrimSpace(line), "|")
		if len(cells) < 3 {
			continue
		}
		last := cells[len(cells)-2]
		head := strings.ToLower(strings.TrimSpace(last))
		if head == "test" || head == "covered by" {
			checked = true
			continue
		}
		if !checked {
			continue
		}
		for _, loc := range quotedRE.FindAllStringSubmatchIndex(last, -1) {
			before := last[:loc[0]]
			if strings.Count(before, "(") > strings.Count(before, ")") || strings.Count(before, "`")%2 == 1 ||
				strings.HasSuffix(strings.TrimSpace(before), "golden") {
				continue
			}
			d := dir
			if strings.Contains(before, "core/run") {
				d = "core/run"
			}
			text := strings.ReplaceAll(last[loc[2]:loc[3]], `\"`, `"`)
			out = append(out, citation{dir: d, segments: []string{text}, line: i + 1})
		}
	}
	return out
}

func TestPackageMapsCiteExistingSpecs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a Ginkgo dry run of every mapped package")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cites := map[string][]citation{}
	var dirs []string
	for name, dir := range packageMaps {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		cites[name] = mapCitations(string(data), dir)
		if len(cites[name]) == 0 {
			t.Errorf("%s: found no quoted spec names; has the citation form changed?", name)
		}
		for _, c := range cites[name] {
			if !slices.Contains(dirs, c.dir) {
				dirs = append(dirs, c.dir)
			}
		}
	}
	slices.Sort(dirs)
	idx := specIndex(t, root, dirs)
	for name, cs := range cites {
		for _, c := range cs {
			if s, ok := idx[c.dir]; ok && !s.matches(c.segments) {
				t.Errorf("%s %s names no spec; fix the citation or the spec name", name, c)
			}
		}
	}
}
