package kit

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

// ReproEntry is the name of the report entry in which a spec records the
// command that reproduces its failure by itself.
const ReproEntry = "repro"

// ScenarioEntry is the name of the report entry in which a spec records
// the repository path of the scenario file whose own expectations it
// failed: a failure conform run reproduces from that file alone.
const ScenarioEntry = "scenario"

// IncidentEntry names the report entries in which a spec records what
// conform had to do to a host process (lab.Report.Incidents).
const IncidentEntry = "incident"

// A Host is the host under test as items see it: how to start it, what it
// answered to initialize, and the flags that name it in a repro command.
type Host struct {
	// Name, Mutant and CoreFault are the certification's --host, --mutant
	// and --core-fault values.
	Name, Mutant, CoreFault string
	// Variant is the certification's --variant value.
	Variant string
	// Argv starts one host process; Env names the environment variables
	// passed to it beyond the harness's allowlist (--host-env).
	Argv, Env []string
	// OnInit, if set, is told the host's first initialize answer.
	OnInit func(wire.InitializeResult)
	// RunContext, if set, returns the certification's context, the parent
	// of the probe session (a host that leaves initialize unanswered twice
	// in a row ends it: session.InitWatch).
	RunContext func() context.Context

	probeOnce sync.Once
	probe     wire.InitializeResult
	probeErr  error
}

// LabOptions are the lab options every scenario of the certification runs
// with.
func (t *Host) LabOptions() lab.Options {
	return lab.Options{Argv: t.Argv, HostEnv: t.Env}
}

// RunRepro is the command that runs one scenario file alone against the
// host under test.
func (t *Host) RunRepro(file string) string {
	return "conform run " + Quote(file) + " --host " + Quote(t.Name) + t.faultFlags()
}

// CertifyRepro is the command that certifies item id alone against the
// host under test: the repro of an item whose spec is Go code rather than
// a scenario file. ref is the item's reference ("39", "R2").
func (t *Host) CertifyRepro(ref string) string {
	return fmt.Sprintf("conform certify --only %s --host %s", ref, Quote(t.Name)) + t.faultFlags()
}

// faultFlags are the --mutant and --core-fault flags of the certification,
// for repro commands.
func (t *Host) faultFlags() string { return FaultFlags(t.Mutant, t.CoreFault) + VariantFlag(t.Variant) }

// VariantFlag is the --variant flag that names a permitted variation of the
// reference host, for repro commands; "" for none.
func VariantFlag(variant string) string {
	if variant == "" {
		return ""
	}
	return " --variant " + Quote(variant)
}

// FaultFlags are the --mutant and --core-fault flags that name a mutant
// and a core fault, for repro commands.
func FaultFlags(mutant, coreFault string) string {
	s := ""
	if mutant != "" {
		s += " --mutant " + Quote(mutant)
	}
	if coreFault != "" {
		s += " --core-fault " + Quote(coreFault)
	}
	return s
}

// probeTimeout bounds the probe session that asks the host what it backs.
const probeTimeout = time.Minute

// Initialized returns the host's answer to initialize, from one probe
// session on empty directories made the first time it is asked (and again
// while the last one went unanswered: see session.InitWatch). A host that
// cannot answer fails the spec asking.
func (t *Host) Initialized() wire.InitializeResult {
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
		parent := context.Background()
		if t.RunContext != nil {
			parent = t.RunContext()
		}
		ctx, cancel := context.WithTimeout(parent, probeTimeout)
		defer cancel()
		h, err := session.StartHost(ctx, session.HostConfig{Argv: t.Argv, Workspace: dirs.Workspace, StoreDir: dirs.Store, PassEnv: t.Env})
		if err != nil {
			t.probeErr = fmt.Errorf("the host failed to initialize: %w", err)
			return
		}
		t.probe = h.Init
		if t.OnInit != nil {
			t.OnInit(h.Init)
		}
		if err := h.Close(); err != nil {
			t.probeErr = fmt.Errorf("the host failed to shut down after initialize: %w", err)
		}
	})
	if t.probeErr != nil {
		Fail(t.probeErr.Error())
	}
	return t.probe
}

// NotApplicable returns why fx cannot apply to the host under test — a
// tool the scenario calls that the host's initialize answer does not list
// — or "". A tool every host must back is never a reason: the scenario
// runs, and the host fails it.
func (t *Host) NotApplicable(fx *fixture.Fixture) string {
	GinkgoHelper()
	backed := t.Initialized().Tools
	var missing []string
	for _, id := range usedTools(fx) {
		if !slices.Contains(backed, id) && !slices.Contains(requiredTools(), id) {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("%s calls %s, which the host does not back (initialize listed %s)",
		filepath.Base(fx.File), strings.Join(missing, ", "), strings.Join(backed, ", "))
}

// Quote quotes s for a POSIX shell when it needs it, for repro commands.
func Quote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
