package checkpoint

import (
	"flag"
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// TestMain makes rapid run 1,000 cases per property unless -rapid.checks
// or RAPID_CHECKS says otherwise.
func TestMain(m *testing.M) {
	flag.Parse()
	setFlagDefault("rapid.checks", "RAPID_CHECKS", "1000")
	os.Exit(m.Run())
}

// setFlagDefault sets the named flag to value unless the command line or
// the environment variable env already chose one.
func setFlagDefault(name, env, value string) {
	if _, ok := os.LookupEnv(env); ok {
		return
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	if !set {
		if err := flag.Set(name, value); err != nil {
			panic(err)
		}
	}
}

func TestCheckpoint(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "checkpoint")
}
