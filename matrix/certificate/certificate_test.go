package certificate_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/fixtures"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/certificate"
	_ "github.com/galaxy-stack/conform/matrix/items" // registers the matrix items
	"github.com/galaxy-stack/conform/reports"
)

// fixture is a certified run in a temporary directory: a small file
// copied to serve as the host binary, a host script it names, a result
// document, an expectations file and the certificate of them.
type fixture struct {
	dir, cert, report, host, script, expect string
}

func newFixture(t *testing.T, withExpect bool) *fixture {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in host binary is a shell script found through PATH rules of Unix")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	fx := &fixture{
		dir: dir, cert: filepath.Join(dir, "out", "cert.json"), report: filepath.Join(dir, "out", "conform.json"),
		host: "host-bin", script: "host.cfg", expect: filepath.Join(dir, "expect.json"),
	}
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, fx.host, "#!/bin/sh\necho a small file standing in for a host binary\n", 0o755)
	write(t, fx.script, "mode = strict\n", 0o644)
	write(t, fx.expect, `{"expectations": []}`, 0o644)
	doc := &reports.Document{
		SchemaVersion: reports.SchemaVersion, Kind: reports.KindCertify, Harness: reports.NewHarness(),
		Host: reports.Host{Command: "./" + fx.host + " --config " + fx.script + " --stdio"},
		OS:   runtime.GOOS, Arch: runtime.GOARCH, MatrixVersion: matrix.Version,
		Items: []reports.Item{{ID: 1, Ref: "1", Name: "n", Title: "t", Area: "workspace", Status: reports.Passed}},
	}
	doc.Tally()
	b, err := reports.Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	write(t, fx.report, string(b), 0o644)
	in := certificate.Inputs{Path: fx.cert, Doc: doc, Report: b, ReportPath: fx.report, Passed: true}
	if withExpect {
		in.ExpectPath = fx.expect
	}
	c, err := certificate.New(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := certificate.Write(fx.cert, c); err != nil {
		t.Fatal(err)
	}
	return fx
}

func write(t *testing.T, path, content string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
}

// appendByte changes one byte of the file at path: one more at its end.
func appendByte(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write([]byte{'\n'}); err != nil {
		t.Fatal(err)
	}
}

// verify reads and verifies fx's certificate and returns the inputs that
// changed.
func (fx *fixture) verify(t *testing.T, o certificate.Options) []string {
	t.Helper()
	c, err := certificate.Read(fx.cert)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := certificate.Verify(fx.cert, c, o)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, x := range ch {
		names = append(names, x.Input)
	}
	return names
}

func TestFreshCertificateHolds(t *testing.T) {
	fx := newFixture(t, true)
	if ch := fx.verify(t, certificate.Options{}); len(ch) > 0 {
		t.Fatalf("a fresh certificate does not hold: %q", ch)
	}
	data, err := os.ReadFile(fx.cert)
	if err != nil {
		t.Fatal(err)
	}
	if err := certificate.Validate(data); err != nil {
		t.Fatalf("the certificate does not follow its schema: %v", err)
	}
	var c certificate.Certificate
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	// The host's executable and the file its command line names are
	// bound, the word --stdio (no such file) is not.
	if len(c.Host.Files) != 2 || c.Host.Files[0].Role != certificate.RoleExecutable || c.Host.Files[1].Path != fx.script || c.Host.Files[1].Word != 2 {
		t.Errorf("host files = %+v, want the executable and %s (word 2)", c.Host.Files, fx.script)
	}
	if c.Report.Path != "conform.json" || c.Expectations.File == nil || c.Expectations.File.Path != "../expect.json" {
		t.Errorf("paths are not relative to the certificate's directory: report %q, expectations %+v", c.Report.Path, c.Expectations.File)
	}
	if len(c.Matrix.Items) != 1 || c.Matrix.Items[0].Ref != "1" {
		t.Errorf("matrix items = %+v, want item 1", c.Matrix.Items)
	}
}

// Each bound input, changed by one byte, is named, and nothing else is.
func TestVerifyNamesTheChangedInput(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(fx *fixture)
		want   string
	}{
		{"report", func(fx *fixture) { appendByte(t, fx.report) }, "report "},
		{"host binary", func(fx *fixture) { appendByte(t, fx.host) }, "host executable "},
		{"host command file", func(fx *fixture) { appendByte(t, fx.script) }, "host argument host.cfg"},
		{"expectations", func(fx *fixture) { appendByte(t, fx.expect) }, "expectations "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFixture(t, true)
			tc.change(fx)
			ch := fx.verify(t, certificate.Options{})
			if len(ch) != 1 || !strings.HasPrefix(ch[0], tc.want) {
				t.Fatalf("changes = %q, want one starting %q", ch, tc.want)
			}
		})
	}
}

// An edit of the certificate itself, here of its verdict, is found by its
// digest.
func TestVerifyFindsAnEditedCertificate(t *testing.T) {
	fx := newFixture(t, false)
	data, err := os.ReadFile(fx.cert)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"verdict":"passed"`, `"verdict":"failed"`, 1)
	if edited == string(data) {
		t.Fatal("no verdict to edit")
	}
	write(t, fx.cert, edited, 0o644)
	ch := fx.verify(t, certificate.Options{})
	if len(ch) != 1 || !strings.HasPrefix(ch[0], "certificate ") {
		t.Fatalf("changes = %q, want the certificate's digest", ch)
	}
}

// Options find moved files; a strict certificate refuses an expectations
// file.
func TestVerifyOptions(t *testing.T) {
	fx := newFixture(t, false)
	moved := filepath.Join(fx.dir, "moved.json")
	if err := os.Rename(fx.report, moved); err != nil {
		t.Fatal(err)
	}
	if ch := fx.verify(t, certificate.Options{}); len(ch) != 1 || !strings.HasPrefix(ch[0], "report ") {
		t.Errorf("a missing report: changes = %q, want the report", ch)
	}
	if ch := fx.verify(t, certificate.Options{Report: moved}); len(ch) != 0 {
		t.Errorf("--report at its new place: changes = %q, want none", ch)
	}
	c, err := certificate.Read(fx.cert)
	if err != nil {
		t.Fatal(err)
	}
	var ue *certificate.UsageError
	if _, err := certificate.Verify(fx.cert, c, certificate.Options{Report: moved, Expect: fx.expect}); !errors.As(err, &ue) {
		t.Errorf("--expect with a strict certificate: err = %v, want a UsageError", err)
	}
	// Another host command line whose executable differs is named.
	other := filepath.Join(fx.dir, "other-bin")
	write(t, other, "#!/bin/sh\nexit 0\n", 0o755)
	ch := fx.verify(t, certificate.Options{Report: moved, Host: other + " --config " + fx.script + " --stdio"})
	if len(ch) != 1 || !strings.HasPrefix(ch[0], "host executable ") {
		t.Errorf("another host binary: changes = %q, want the executable", ch)
	}
}

// A file that is not a certificate is refused by Read, naming why.
func TestReadRefusesInvalid(t *testing.T) {
	fx := newFixture(t, false)
	for _, bad := range []string{`{}`, `not json`, `{"certificateVersion":"1"}`} {
		write(t, fx.cert, bad, 0o644)
		var ie *certificate.InvalidError
		if _, err := certificate.Read(fx.cert); !errors.As(err, &ie) {
			t.Errorf("Read(%q) = %v, want an InvalidError", bad, err)
		}
	}
}

// An item's digest covers its scenario files and its metadata: it changes
// when either does, and not otherwise.
func TestDigestItem(t *testing.T) {
	var it matrix.Item
	for _, x := range matrix.Items() {
		if x.ID == 1 {
			it = x
		}
	}
	a, err := certificate.DigestItem(it, fixtures.Matrix())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := certificate.DigestItem(it, fixtures.Matrix())
	if a != b {
		t.Fatalf("two digests of one item differ: %s, %s", a, b)
	}
	it2 := it
	it2.Title += "."
	if c, _ := certificate.DigestItem(it2, fixtures.Matrix()); c == a {
		t.Error("the digest does not change with the item's title")
	}
	// The same metadata over a copy of the scenarios with one byte more.
	dir := t.TempDir()
	if err := os.CopyFS(dir, fixtures.Matrix()); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, it.ScenarioDir()))
	if err != nil || len(entries) == 0 {
		t.Fatalf("no scenarios for item 1: %v", err)
	}
	appendByte(t, filepath.Join(dir, it.ScenarioDir(), entries[0].Name()))
	if c, _ := certificate.DigestItem(it, os.DirFS(dir)); c == a {
		t.Error("the digest does not change with a scenario file")
	}
}
