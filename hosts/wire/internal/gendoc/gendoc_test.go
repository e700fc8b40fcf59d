package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/hosts/builtin"
)

// TestMain lets the test binary act as the containment probe helper, as
// the conform binary does.
func TestMain(m *testing.M) {
	builtin.MaybeServeTest()
	code := m.Run()
	// The hosts probe containment in the background; wait for the probe, so
	// that no helper process outlives the tests.
	prober().Probe()
	os.Exit(code)
}

// wireRoot is hosts/wire, seen from this package's directory.
const wireRoot = "../.."

// live is one generation against live in-process hosts, shared by the
// tests of this package.
var live = sync.OnceValues(func() (map[string][]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return generate(ctx, wireRoot)
})

// needsNPM reports whether a generated file depends on npm, which runs the
// declared scripts of the project.validate example, and npm is missing.
func needsNPM(name string) bool {
	if name != toolsDir+"/project.validate.md" {
		return false
	}
	_, err := exec.LookPath("npm")
	return err != nil
}

func TestCommittedReferenceIsGenerated(t *testing.T) {
	files, err := live()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		if needsNPM(name) {
			t.Logf("npm is not on PATH: %s is not compared", name)
			continue
		}
		got, err := os.ReadFile(filepath.Join(wireRoot, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("hosts/wire/%s is missing: run `go run ./hosts/wire/internal/gendoc` and commit it", name)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("hosts/wire/%s differs from what the generator writes (%s): run `go run ./hosts/wire/internal/gendoc` and commit the result", name, firstDiff(got, want))
		}
	}
	pages, err := filepath.Glob(filepath.Join(wireRoot, toolsDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if _, ok := files[toolsDir+"/"+filepath.Base(p)]; !ok {
			t.Errorf("hosts/wire/%s/%s is not generated from the catalog: remove it or run the generator", toolsDir, filepath.Base(p))
		}
	}
	if n := len(catalog.IDs()); len(pages) != n+1 {
		t.Errorf("hosts/wire/%s holds %d pages, want one per tool (%d) and the index", toolsDir, len(pages), n)
	}
}

// TestExamplesMatchLiveHost reads every worked example out of the committed
// pages and compares it, message by message, with a live run of the host
// that recorded it: only the session's directories are normalised.
func TestExamplesMatchLiveHost(t *testing.T) {
	for _, id := range catalog.IDs() {
		name := toolsDir + "/" + id + ".md"
		t.Run(id, func(t *testing.T) {
			if needsNPM(name) {
				t.Skip("npm is not on PATH: the project.validate example runs npm scripts")
			}
			page, err := os.ReadFile(filepath.Join(wireRoot, filepath.FromSlash(name)))
			if err != nil {
				t.Fatalf("hosts/wire/%s: %v", name, err)
			}
			committed, err := exampleLines(page)
			if err != nil {
				t.Fatalf("hosts/wire/%s: %v", name, err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			ex, err := record(ctx, id, scenarios[id])
			if err != nil {
				t.Fatal(err)
			}
			if len(committed) != len(ex.Lines) {
				t.Fatalf("hosts/wire/%s shows %d messages, the live %s host exchanged %d", name, len(committed), ex.Host, len(ex.Lines))
			}
			for i, l := range ex.Lines {
				c := committed[i]
				if c.FromHost != l.FromHost {
					t.Errorf("message %d: the page and the live run disagree on who sent it", i+1)
				}
				if !json.Valid([]byte(c.Text)) {
					t.Errorf("message %d of the page is not JSON: %s", i+1, c.Text)
				}
				if c.Text != l.Text {
					t.Errorf("message %d differs from the live %s host:\n page: %s\n live: %s", i+1, ex.Host, c.Text, l.Text)
				}
			}
		})
	}
}

// exampleLines parses the messages of a page's "## Example" section.
func exampleLines(page []byte) ([]line, error) {
	_, section, ok := strings.Cut(string(page), "\n## Example\n")
	if !ok {
		return nil, errNoExample
	}
	var out []line
	sc := bufio.NewScanner(strings.NewReader(section))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var pending *line
	inBlock := false
	for sc.Scan() {
		text := sc.Text()
		switch {
		case text == exampleSent || text == exampleReceived:
			pending = &line{FromHost: text == exampleReceived}
		case pending != nil && text == "```json":
			inBlock = true
		case inBlock && text == "```":
			out = append(out, *pending)
			pending, inBlock = nil, false
		case inBlock:
			pending.Text += text
		}
	}
	if len(out) == 0 {
		return nil, errNoExample
	}
	return out, sc.Err()
}

type constError string

func (e constError) Error() string { return string(e) }

const errNoExample = constError("no worked example in the page's Example section")

// firstDiff names the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return "first difference at line " + strconv.Itoa(i+1)
		}
	}
	return "one is a prefix of the other"
}
