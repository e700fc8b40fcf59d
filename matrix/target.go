package matrix

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/ginkgo/v2"
)

// reproEntry is the name of the report entry in which a spec records the
// command that reproduces its failure by itself.
const reproEntry = "repro"

// incidentEntry names the report entries in which a spec records what
// conform had to do to a host process (lab.Report.Incidents).
const incidentEntry = "incident"

// hostUnderTest returns the host of this process's certification, failing
// the spec when there is none.
func hostUnderTest() *target {
	GinkgoHelper()
	if current == nil {
		Fail("no host under test: call matrix.Run or matrix.UseHost first")
	}
	return current
}

// labOptions are the lab options every scenario of the certification runs
// with.
func (t *target) labOptions() lab.Options {
	return lab.Options{Argv: t.argv, HostEnv: t.cfg.HostEnv}
}

// runRepro is the command that runs one scenario file alone against the
// host under test.
func (t *target) runRepro(file string) string {
	return "conform run " + shellQuote(file) + " --host " + shellQuote(t.cfg.Host) + t.faultFlags()
}

// certifyRepro is the command that certifies item id alone against the
// host under test: the repro of an item whose spec is Go code rather than
// a scenario file.
func (t *target) certifyRepro(id int) string {
	return fmt.Sprintf("conform certify --only %s --host %s", RefOf(id), shellQuote(t.cfg.Host)) + t.faultFlags()
}

// faultFlags are the --mutant and --core-fault flags of the certification,
// for repro commands.
func (t *target) faultFlags() string {
	s := ""
	if t.cfg.Mutant != "" {
		s += " --mutant " + shellQuote(t.cfg.Mutant)
	}
	if t.cfg.CoreFault != "" {
		s += " --core-fault " + shellQuote(t.cfg.CoreFault)
	}
	return s
}

// probeTimeout bounds the probe session that asks the host what it backs.
const probeTimeout = time.Minute

// initialized returns the host's answer to initialize, from one probe
// session on empty directories made the first time it is asked (and again
// while the last one went unanswered: see session.InitWatch). A host that
// cannot answer fails the spec asking.
func (t *target) initialized() wire.InitializeResult {
	GinkgoHelper()
	if hostproc.Unanswered(t.probeErr) {
		t.probeOnce, t.probeErr = sync.Once{}, nil
	}
	t.probeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "conform-probe-")
		if err != nil {
			t.probeErr = err
			return
		}
		defer os.RemoveAll(dir)
		dirs, err := lab.NewDirs(dir)
		if err != nil {
			t.probeErr = err
			return
		}
		ctx, cancel := context.WithTimeout(runContext(), probeTimeout)
		defer cancel()
		h, err := session.StartHost(ctx, session.HostConfig{Argv: t.argv, Workspace: dirs.Workspace, StoreDir: dirs.Store, PassEnv: t.cfg.HostEnv})
		if err != nil {
			t.probeErr = fmt.Errorf("the host failed to initialize: %w", err)
			return
		}
		t.probe = h.Init
		t.sawHost(h.Init)
		if err := h.Close(); err != nil {
			t.probeErr = fmt.Errorf("the host failed to shut down after initialize: %w", err)
		}
	})
	if t.probeErr != nil {
		Fail(t.probeErr.Error())
	}
	return t.probe
}

// notApplicable returns why fx cannot apply to the host under test — a
// tool the scenario calls that the host's initialize answer does not list
// — or "". A tool every host must back is never a reason: the scenario
// runs, and the host fails it.
func (t *target) notApplicable(fx *fixture.Fixture) string {
	GinkgoHelper()
	backed := t.initialized().Tools
	var missing []string
	for _, id := range usedTools(fx) {
		if !slices.Contains(backed, id) && !slices.Contains(requiredTools, id) {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("%s calls %s, which the host does not back (initialize listed %s)",
		filepath.Base(fx.File), strings.Join(missing, ", "), strings.Join(backed, ", "))
}
