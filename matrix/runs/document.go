package runs

import (
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/hostcmd"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/reports"
)

// runDoc builds the result document of `conform run` (kind "run"): one
// item per fixture or campaign stage, in the order they ran.
type runDoc struct {
	host, mutant, coreFault string
	argv                    []string
	started                 time.Time
	items                   []reports.Item
	seen                    *lab.Report // the first report, for what the host said it is
}

func newRunDoc(host, mutant, coreFault string, argv []string) *runDoc {
	return &runDoc{host: host, mutant: mutant, coreFault: coreFault, argv: argv, started: time.Now()}
}

// repro is the command that runs file alone against the same host.
func (r *runDoc) repro(file string) string {
	s := "conform run " + shellWord(file) + " --host " + shellWord(r.host)
	if r.mutant != "" {
		s += " --mutant " + shellWord(r.mutant)
	}
	if r.coreFault != "" {
		s += " --core-fault " + shellWord(r.coreFault)
	}
	return s
}

// add records one fixture's (or stage's) report.
func (r *runDoc) add(name string, rep *lab.Report, d time.Duration) {
	if r.seen == nil {
		r.seen = rep
	}
	it := reports.Item{Name: name, Title: name, Area: "run", Fixture: name, File: rep.File, DurationMs: d.Milliseconds(), ReplayHash: rep.ReplayHash}
	switch {
	case rep.NotApplicable != "":
		it.Status, it.Reason = reports.NotApplicable, rep.NotApplicable
	case rep.Passed:
		it.Status = reports.Passed
	default:
		it.Status, it.Repro = reports.Failed, r.repro(rep.File)
		var lines []string
		if rep.ErrorCode != nil || rep.ErrorMessage != "" {
			head := "status " + rep.Status
			if rep.ErrorCode != nil {
				head += " " + *rep.ErrorCode
			}
			if rep.ErrorMessage != "" {
				head += " (" + rep.ErrorMessage + ")"
			}
			lines = append(lines, head)
		}
		for _, f := range rep.Failures {
			lines = append(lines, f.Assertion+": "+f.Detail())
		}
		if len(lines) == 0 {
			lines = append(lines, "status "+rep.Status)
		}
		it.Reason = strings.Join(lines, "\n")
	}
	// What the user allowed is reported whatever the status, as certify
	// reports the research allowance.
	for _, a := range rep.Allowances {
		it.Reason = strings.TrimSpace(it.Reason + "\nallowance: " + a)
	}
	r.items = append(r.items, it)
}

// skip records a fixture that did not finish, with the reason.
func (r *runDoc) skip(fx *fixture.Fixture, reason string) {
	r.items = append(r.items, reports.Item{Name: fx.Name, Title: fx.Name, Area: "run", Fixture: fx.Name, File: fx.File, Status: reports.Skipped, Reason: reason})
}

// document returns the result document; interrupted marks it so.
func (r *runDoc) document(interrupted bool) *reports.Document {
	d := &reports.Document{
		SchemaVersion: reports.SchemaVersion, Kind: reports.KindRun,
		Harness: reports.NewHarness(),
		Host:    reports.Host{Command: r.host, Mutant: r.mutant, CoreFault: r.coreFault},
		OS:      runtime.GOOS, Arch: runtime.GOARCH, MatrixVersion: matrix.Version,
		StartedAt:   r.started.UTC().Format(time.RFC3339),
		Items:       slices.Clone(r.items),
		Interrupted: interrupted,
	}
	if d.Items == nil {
		d.Items = []reports.Item{}
	}
	if words, err := builtin.Words(r.host); err == nil {
		id := hostcmd.Identify(words, r.argv)
		d.Host.BinarySHA256 = id.ExecutableSHA256
		if !builtin.IsBuiltin(r.host) {
			d.Host.ProgramPath, d.Host.ProgramSHA256 = id.Program, id.ProgramSHA256
		}
	}
	if r.seen != nil {
		d.Host.Name, d.Host.Version, d.Host.Doubles = r.seen.Host.Name, r.seen.Host.Version, r.seen.Doubles
	}
	d.Tally()
	reports.Redact(d)
	return d
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
