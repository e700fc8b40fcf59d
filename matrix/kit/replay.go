package kit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
)

// secondClockStartMs is where the second run's virtual clock starts:
// 2027-01-15, the first run's starts at 0.
const secondClockStartMs int64 = 1_800_000_000_000

// SecondRunAgrees runs o's scenario again, isolated and varied, and fails
// unless its transcript equals the first run's.
func SecondRunAgrees(o *Outcome) {
	GinkgoHelper()
	fx, _, err := loadScenario(strings.TrimPrefix(o.File, "fixtures/matrix/"))
	Expect(err).NotTo(HaveOccurred(), "%s: the scenario does not load for the second run", o.File)
	t := o.TestContext.Host()
	parent, err := os.MkdirTemp("", "conform-replay-second-isolated-run-")
	Expect(err).NotTo(HaveOccurred(), "the harness cannot make the second run's directory")
	defer os.RemoveAll(parent)
	nested := filepath.Join(parent, "another name", "deeper")
	dirs, err := lab.NewDirs(nested)
	Expect(err).NotTo(HaveOccurred(), "the harness cannot make the second run's workspace and store")
	opts := t.LabOptions()
	opts.ClockStartMs = secondClockStartMs
	opts.Env, err = variedHostEnv(parent, opts.HostEnv)
	Expect(err).NotTo(HaveOccurred(), "the harness cannot build the second run's varied environment")
	second, err := lab.RunFixture(o.Ctx(), fx, dirs, opts)
	Expect(err).NotTo(HaveOccurred(), "%s: the second run could not happen", o.File)
	a, b := replay.Build(o.Report), replay.Build(second)
	ha, err := a.Hash()
	Expect(err).NotTo(HaveOccurred(), "%s: the first run's transcript has no replay hash", o.File)
	hb, err := b.Hash()
	Expect(err).NotTo(HaveOccurred(), "%s: the second run's transcript has no replay hash", o.File)
	if ha == hb {
		return
	}
	AddReportEntry(ReproEntry, t.CertifyRepro(o.TestContext.Ref))
	d := replay.Diverge(a, b)
	where := "no event (the transcripts are equal but their hashes are not)"
	if d != nil {
		where = d.String()
	}
	Fail(fmt.Sprintf("%s: two isolated runs gave different replay hashes, %s and %s; %s\n"+
		"(- first run: conform-run-* directory, the harness's environment, clock at 0; + second run: a differently named and deeper directory, TZ=%s, the environment reversed, clock at %d.) "+
		"A conformant host and core give the same transcript whatever the directory, time zone, environment order and start time: nothing absolute, timed or process-specific reaches a result, an effect or an ID.",
		o.File, ha, hb, where, secondTZ(), secondClockStartMs))
}

// secondTZ is the time zone of the second run: one with an odd offset,
// unlike the harness's own.
func secondTZ() string {
	if os.Getenv("TZ") == "Asia/Kathmandu" {
		return "America/St_Johns"
	}
	return "Asia/Kathmandu"
}

// variedHostEnv is the whole environment of the second run's host
// processes: the variables the host would inherit (hostproc.DefaultEnv and
// the certification's --host-env names) with TZ changed, HOME and TMPDIR
// inside parent, in the reverse of the harness's order. hostproc adds
// conform's cache directory for a trusted host, as to every session of it
// (the reference host keeps its verified containment probe there, which
// changes nothing a transcript holds), and drops it for any other.
func variedHostEnv(parent string, pass []string) ([]string, error) {
	home := filepath.Join(parent, "home")
	tmp := filepath.Join(home, "tmp")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return nil, err
	}
	allowed := append(hostproc.DefaultEnv(), pass...)
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != "TZ" && envNameAllowed(name, allowed) {
			env = append(env, kv)
		}
	}
	env = append(env, "TZ="+secondTZ(), "HOME="+home, "TMPDIR="+tmp)
	slices.Reverse(env)
	return env, nil
}

// envNameAllowed reports whether name is in allowed, where an entry
// ending in "*" is a prefix.
func envNameAllowed(name string, allowed []string) bool {
	for _, a := range allowed {
		if p, ok := strings.CutSuffix(a, "*"); ok && strings.HasPrefix(name, p) || a == name {
			return true
		}
	}
	return false
}
