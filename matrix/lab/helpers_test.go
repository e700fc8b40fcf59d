package lab_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
)

// seedDir and campaignDir hold the original fixtures and campaign, as the
// fixture package keeps them.
const (
	seedDir     = "../fixture/testdata/fixtures"
	campaignDir = "../fixture/testdata/campaigns/progressive-project"
	featureDir  = "testdata/features"
)

// hostArgv returns the command line of a built-in host served by this
// test binary.
func hostArgv(name string) []string {
	argv, err := builtin.Command(name)
	Expect(err).NotTo(HaveOccurred())
	return argv
}

// mutantArgv returns the command line of a mutant of the reference host
// served by this test binary.
func mutantArgv(name string) []string {
	return append(hostArgv("reference"), "--mutant", name)
}

// storelessArgv starts this test binary as a reference host that offers no
// store and no trace.
func storelessArgv() []string {
	exe, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	return []string{exe, storelessHostArg}
}

// loadOne loads the fixture at path.
func loadOne(path string) *fixture.Fixture {
	fxs, err := fixture.Load(path)
	Expect(err).NotTo(HaveOccurred())
	Expect(fxs).To(HaveLen(1))
	return fxs[0]
}

// runOn runs fx against the host argv in fresh directories. Fixtures that
// require command containment run with every backend forbidden: their
// premise is a host without a verified backend (DECISIONS 65).
func runOn(argv []string, fx *fixture.Fixture) *lab.Report {
	GinkgoHelper()
	opts := lab.Options{Argv: argv, ForbidContainment: fx.Settings().CommandContainment == wire.ContainmentRequired}
	rep, err := lab.Run(context.Background(), fx, opts, false)
	Expect(err).NotTo(HaveOccurred())
	return rep
}

// runFast runs fx like runOn, but with every containment backend
// forbidden, which spares each host process its containment probe. The
// specs that use it do not depend on containment.
func runFast(argv []string, fx *fixture.Fixture) *lab.Report {
	GinkgoHelper()
	rep, err := lab.Run(context.Background(), fx, lab.Options{Argv: argv, ForbidContainment: true}, false)
	Expect(err).NotTo(HaveOccurred())
	return rep
}

// failuresOf renders a report's failures for a failure message.
func failuresOf(rep *lab.Report) []string {
	var out []string
	for _, f := range rep.Failures {
		out = append(out, f.String())
	}
	return out
}

// copyFixture writes fx's file, with edit applied to the decoded JSON
// document, to a new file in dir and returns its path.
func copyFixture(src, dir, name string, edit func(map[string]any)) string {
	GinkgoHelper()
	b, err := os.ReadFile(src)
	Expect(err).NotTo(HaveOccurred())
	doc := decode(b)
	edit(doc)
	p := filepath.Join(dir, name)
	Expect(os.WriteFile(p, encode(doc), 0o644)).To(Succeed())
	return p
}

func decode(b []byte) map[string]any {
	var m map[string]any
	Expect(json.Unmarshal(b, &m)).To(Succeed())
	return m
}

func encode(m map[string]any) []byte {
	b, err := json.Marshal(m)
	Expect(err).NotTo(HaveOccurred())
	return b
}

// testingShort reports whether the tests run with -short.
func testingShort() bool { return testing.Short() }

func removeAll(p string) error { return os.RemoveAll(p) }
