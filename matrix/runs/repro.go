package runs

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/galaxy-stack/conform/internal/atomicfile"
	"github.com/galaxy-stack/conform/internal/redact"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/scenariofile"
)

// ReproArchive returns the self-contained txtar scenario that reproduces
// the failure rep of r with the command cmd: the scenario itself (a txtar
// scenario's own bytes, or the txtar scenario conform import makes of a
// JSON fixture), its script comment headed by lines that say what failed
// and the command that runs it again. It needs no checkout: conform run
// reads everything from the archive.
func ReproArchive(r Runnable, rep *lab.Report, cmd string) ([]byte, error) {
	return Repro(r, r.Fixture.Name+" failed against the host of the command below.", reasonLines(rep), cmd)
}

// Repro is ReproArchive for any failure: title says what failed, reasons
// are its lines (redacted here), cmd runs the archive again.
func Repro(r Runnable, title string, reasons []string, cmd string) ([]byte, error) {
	src, err := source(r)
	if err != nil {
		return nil, err
	}
	data := src
	if r.Scenario == nil {
		if data, err = scenariofile.Import(r.Fixture.File, src); err != nil {
			return nil, err
		}
	}
	return Headed(data, title, reasons, cmd), nil
}

// Headed returns the txtar scenario data with its script comment headed by
// the lines Repro writes: title, the command cmd that runs it, and the
// reasons, each redacted.
func Headed(data []byte, title string, reasons []string, cmd string) []byte {
	a := txtar.Parse(data)
	var head bytes.Buffer
	fmt.Fprintf(&head, "# Repro: %s\n", commentLine(redact.String(title)))
	fmt.Fprintf(&head, "# Run: %s\n", commentLine(redact.String(cmd)))
	for _, line := range reasons {
		for _, l := range strings.Split(line, "\n") {
			fmt.Fprintf(&head, "#   %s\n", commentLine(redact.String(l)))
		}
	}
	a.Comment = append(head.Bytes(), a.Comment...)
	return txtar.Format(a)
}

// source returns the bytes r was loaded from: conform's embedded copy for
// one of its own scenarios, else the file, read again within the fixture
// size limit.
func source(r Runnable) ([]byte, error) {
	file := r.Fixture.File
	if r.Scenario != nil {
		file = r.Scenario.File
	}
	if r.Trusted {
		if own, ok := ownScenario(file); ok {
			return own, nil
		}
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, fixture.MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > fixture.MaxFileSize {
		return nil, fmt.Errorf("%s grew over the fixture size limit since it was loaded", file)
	}
	return b, nil
}

// reasonLines are the status and the failures of rep.
func reasonLines(rep *lab.Report) []string {
	head := "status " + rep.Status
	if rep.ErrorCode != nil {
		head += " " + *rep.ErrorCode
	}
	lines := []string{head}
	for _, f := range rep.Failures {
		lines = append(lines, f.Assertion+": "+f.Message)
	}
	return lines
}

// commentLine makes s one line of a script comment: as it is when every
// character is graphic, else Go-quoted, so that nothing in it starts a
// script line or a file of the archive.
func commentLine(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsGraphic(r) }) < 0 {
		return s
	}
	return strconv.QuoteToGraphic(s)
}

// ReproName is the file name of a fixture's repro: its name with every
// character outside [A-Za-z0-9._-] replaced, and .txtar.
func ReproName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	s := strings.Trim(string(b), ".")
	if s == "" {
		s = "fixture"
	}
	if len(s) > 180 {
		s = s[:180]
	}
	return s + scenariofile.Ext
}

// writeRepro writes the repro of rep into dir (created if needed; nothing
// under it is followed) and returns its path.
func writeRepro(dir string, r Runnable, rep *lab.Report, cmd func(file string) string) (string, error) {
	name := ReproName(r.Fixture.Name)
	file := filepath.Join(dir, name)
	data, err := ReproArchive(r, rep, cmd(file))
	if err != nil {
		return "", err
	}
	return file, WriteRepro(dir, name, data)
}

// WriteRepro writes data as dir/name atomically, dir created if needed and
// nothing under it followed.
func WriteRepro(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return atomicfile.WriteFileIn(root, name, data, 0o644)
}
