package kit

import (
	"fmt"
	"path"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A Dialect is one half of item 53: the probes of one shell dialect, run
// only against a host whose announced interpreter speaks it.
type Dialect struct {
	// Shell is the hostEnvironment.command.shell the probes are written in.
	Shell string
	// Platforms are the operating systems (Node names) that run it.
	Platforms string
	// File is the scenario, relative to the item's directory.
	File string
	// Sentences are the space-separated keys of the contract sentences
	// the probe enforces (as for On).
	Sentences string
	// Check is the item's own assertions on the outcome.
	Check Check
}

// DialectProbes registers one spec per dialect, in place of scenarios():
// each runs its scenario file of the item's directory only once the
// host's initialize answer — the interpreter it announces, never the
// machine the harness runs on — says its probes apply, and reports
// not_applicable with the reason otherwise.
func DialectProbes(c *TestContext, ds ...Dialect) {
	dir := c.Dir
	for _, d := range ds {
		rel := path.Join(dir, d.File)
		c.It(d.Shell, d.Sentences, func() {
			fx, _, err := loadScenario(rel)
			Expect(err).NotTo(HaveOccurred(), "scenario %s does not load", rel)
			if reason := c.Host().NotApplicable(fx); reason != "" {
				NotApplicable(reason)
			}
			env := PublishedEnvironment(c, rel)
			if env.Command.Shell != d.Shell {
				NotApplicable(fmt.Sprintf("the host announces the %s interpreter %s on %s; the %s dialect probes apply to hosts whose commands run in %s (%s)",
					env.Command.Shell, env.Command.Executable, env.OperatingSystem, d.Shell, d.Shell, d.Platforms))
			}
			c.RunScenario(rel, d.Check)
		})
	}
}

// DialectChecks are the assertions both dialects share: each probe's
// exact output, the timeout and the cancellation ended their commands in
// time, and the bounded stream kept the other one intact.
func DialectChecks(prefix string, want map[string]string, small string) Check {
	return func(o *Outcome) {
		GinkgoHelper()
		for _, id := range []string{"variables", "redirection", "unicode-cwd"} {
			c := o.ContentOf(prefix + id)
			Expect(c["stdout"]).To(Equal(want[id]), "%s: the %s probe printed %q; the dialect must give %q", o.File, id, c["stdout"], want[id])
		}
		c := o.ContentOf(prefix + "redirection")
		Expect(c["stderr"]).To(Equal(want["redirection-stderr"]), "%s: only the unredirected line may reach stderr", o.File)
		for id, flag := range map[string]string{"timeout": "timedOut", "cancel": "cancelled"} {
			c := o.ContentOf(prefix + id)
			Expect(c[flag]).To(Equal(true), "%s: the %s probe must end with %s: true", o.File, id, flag)
			Expect(c["stdout"]).To(BeEmpty(), "%s: the %s probe's command went on to print %q after it was ended", o.File, id, c["stdout"])
		}
		c = o.ContentOf(prefix + "bounds")
		Expect(c["truncated"]).To(Equal(true), "%s: the bounds probe's large stdout must be truncated", o.File)
		Expect(c["stderr"]).To(Equal(small), "%s: the small stderr beside a truncated stdout must be intact", o.File)
	}
}
