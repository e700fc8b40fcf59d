package main

import (
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/fixtures"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/runs"
	"github.com/galaxy-stack/conform/matrix/scenariofile"
)

// certifyReproHelp is what certify's help says of --repro-dir.
const certifyReproHelp = `Repros: --repro-dir DIR writes, for every scenario of a failed item whose
own expectations failed, a self-contained txtar scenario
DIR/REF-NAME-SCENARIO.txtar (item 13's scenario cwd-escape:
13-symlink-traversal-cwd-escape.txtar): the scenario (as conform import
turns a JSON fixture into one), its script comment headed by the item, the
failure and the command that runs it again. The item's reason names it on a
"repro file:" line, and that command (conform run FILE --host HOST ...
--allow-uncontained-commands: the file is a stranger's to conform run)
becomes the item's repro in the result document. The archive needs no
checkout. Without the flag the repros go to repro/ beside the file
--json-report names, when it names one; --repro-dir - writes none. Specs
that are Go code rather than a scenario file, scenarios that passed their
own expectations but failed an item's further assertions (conform run
checks a scenario's expectations alone), and scenarios the item's bound cut
short or conform could not run get no archive: their repro stays the
conform run or conform certify --only command.`

// addCertifyReproFlag declares certify's --repro-dir.
func addCertifyReproFlag(fs *flag.FlagSet) *string {
	return fs.String("repro-dir", "", "write a self-contained txtar repro of every failed scenario of an item into `DIR` (default: repro/ beside --json-report; - for none)")
}

// certifyReproDir is where certify writes its repros: --repro-dir, or
// repro/ beside --json-report, or "" for none. A path that is there and is
// not a directory (a symbolic link included) is refused.
func certifyReproDir(dir, jsonReport string) (string, error) {
	switch {
	case dir == "-":
		return "", nil
	case dir == "" && jsonReport != "":
		dir = filepath.Join(filepath.Dir(jsonReport), "repro")
	case dir == "":
		return "", nil
	}
	return dir, checkReproDir("certify", dir)
}

// certifyRepro returns the matrix's repro writer for dir, nil for none.
func certifyRepro(dir string) func(matrix.ReproRequest) (string, error) {
	if dir == "" {
		return nil
	}
	return func(req matrix.ReproRequest) (string, error) {
		// The copy built into conform is the one that ran, whatever a
		// checkout in the working directory holds.
		rel, ok := strings.CutPrefix(req.File, fixtures.MatrixDir+"/")
		if !ok {
			return "", fmt.Errorf("%s is not one of conform's matrix scenarios", req.File)
		}
		src, err := fs.ReadFile(fixtures.Matrix(), rel)
		if err != nil {
			return "", err
		}
		sc, err := scenariofile.Import(req.File, src)
		if err != nil {
			return "", err
		}
		name := runs.ReproName(req.Name)
		file := filepath.Join(dir, name)
		return file, runs.WriteRepro(dir, name, runs.Headed(sc, req.Title, req.Reasons, req.Command(file)))
	}
}
