package main

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/fixtures"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/scenariofile"
)

// ownRunnable loads the scenario file p from conform's embedded copy when
// p is one of conform's own scenarios: a file whose bytes are exactly
// those of an embedded scenario, or a path under fixtures/matrix/ that
// does not exist on disk and names one (the repro commands certify
// prints). Such a runnable is trusted: its commands reach the host
// whatever containment the host reports. ok is false for every other
// file, which the caller loads as a scenario from outside conform. What
// runs is always the embedded copy, never the file read again.
func ownRunnable(p string) (r runnable, ok bool, err error) {
	own, ok := ownScenario(p)
	if !ok {
		return runnable{}, false, nil
	}
	r.trusted = true
	if scenariofile.IsScenario(p) {
		r.sc, err = scenariofile.Parse(p, own)
		if err == nil {
			r.fx = r.sc.Fixture
		}
		return r, true, err
	}
	r.fx, err = fixture.Parse(p, own)
	return r, true, err
}

// ownScenario returns conform's embedded copy of the scenario file p, if
// p is one (see ownRunnable).
func ownScenario(p string) ([]byte, bool) {
	if own, _, ok := lab.EmbeddedFile(p); ok {
		return own, true
	}
	if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	rel, ok := strings.CutPrefix(path.Clean(filepath.ToSlash(p)), fixtures.MatrixDir+"/")
	if !ok {
		return nil, false
	}
	own, err := fs.ReadFile(fixtures.Matrix(), rel)
	return own, err == nil
}
