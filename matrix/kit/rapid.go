package kit

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/internal/rapidtest"
	. "github.com/onsi/ginkgo/v2"
	"pgregory.net/rapid"
)

// This file runs item 39's rapid properties inside a Ginkgo spec, under
// go test and inside the conform binary alike.
//
// Reproducing a failure: rapid shrinks the failing case and prints its
// seed; the spec's failure message shows that minimal case compactly
// (minimalCase: its draws and the failure, without rapid's -rapid.seed
// hint, a go test flag) and, with its repro entry, says
//
//	CONFORM_RAPID_SEED=<seed> conform certify --only 39 --host HOST
//
// which replays exactly the cases that run found (the environment
// variable sets rapid's -rapid.seed for every property of item 39).
// Without it the properties start from rapidSeedDefault, so two
// certifications of one host draw the same cases.

// rapidSeedEnv names the environment variable that chooses the seed of
// item 39's properties.
const rapidSeedEnv = "CONFORM_RAPID_SEED"

// rapidSeedDefault is the seed of item 39's properties when rapidSeedEnv
// is not set: certifications are deterministic.
const rapidSeedDefault = 39039

// rapidShrinkTime bounds how long rapid shrinks one failing case.
const rapidShrinkTime = 10 * time.Second

// rapidFlags makes rapid runnable outside go test: rapid calls
// testing.Short, which needs testing's flags registered and parsed. Both
// steps do nothing the second time.
func rapidFlags() {
	if flag.Lookup("test.short") == nil {
		testing.Init()
	}
	if !flag.Parsed() {
		_ = flag.CommandLine.Parse(nil)
	}
}

// rapidSeed is the seed of this certification's properties: rapidSeedEnv
// when set to a positive integer, else rapidSeedDefault.
func rapidSeed() (uint64, error) {
	s, ok := os.LookupEnv(rapidSeedEnv)
	if !ok || s == "" {
		return rapidSeedDefault, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%s=%q: the seed must be a positive integer, as the replay command of a failed item 39 gives it", rapidSeedEnv, s)
	}
	return n, nil
}

// property runs prop for checks cases with rapid and fails the spec with
// rapid's shrunk counterexample and the command that replays it. what
// names the property in the failure.
func property(c *TestContext, what string, checks int, prop func(*rapid.T)) {
	GinkgoHelper()
	rapidFlags()
	seed, err := rapidSeed()
	if err != nil {
		Fail(err.Error())
	}
	failed, log := rapidtest.Run(fmt.Sprintf("item%d/%s", c.ID, what), map[string]string{
		"rapid.checks": strconv.Itoa(checks), "rapid.seed": strconv.FormatUint(seed, 10),
		"rapid.nofailfile": "true", "rapid.shrinktime": rapidShrinkTime.String(),
	}, prop)
	if !failed {
		return
	}
	repro := c.Host().CertifyRepro(c.Ref)
	if m := rapidSeedLine().FindStringSubmatch(log); m != nil {
		repro = rapidSeedEnv + "=" + m[1] + " " + repro
	}
	AddReportEntry(ReproEntry, repro)
	Fail(fmt.Sprintf("item %d, property %q: the host fails the case below; replay it with:\n  %s\n%s", c.ID, what, repro, minimalCase(log)))
}

// rapidSeedLine finds the seed in rapid's "To reproduce" line.
func rapidSeedLine() *regexp.Regexp { return regexp.MustCompile(`-rapid\.seed=(\d+)`) }
