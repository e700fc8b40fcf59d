package main

import (
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/galaxy-stack/conform/fixtures"
	"github.com/galaxy-stack/conform/matrix/fixture"
)

// loadFixtures loads the fixture file or directory p. A path under
// fixtures/matrix/ that does not exist on disk is read from the copy of the
// matrix scenarios embedded in the binary, so that the repro commands
// certify prints work outside a checkout of conform.
func loadFixtures(p string) ([]*fixture.Fixture, error) {
	fxs, err := fixture.Load(p)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return fxs, err
	}
	rel, ok := strings.CutPrefix(p, fixtures.MatrixDir+"/")
	if !ok {
		return nil, err
	}
	if _, serr := os.Stat(p); !errors.Is(serr, fs.ErrNotExist) {
		return nil, err
	}
	data, rerr := fs.ReadFile(fixtures.Matrix(), rel)
	if rerr != nil {
		return nil, err
	}
	fx, perr := fixture.Parse(p, data)
	if perr != nil {
		return nil, perr
	}
	return []*fixture.Fixture{fx}, nil
}
