// Package suite runs a package's Ginkgo specs as go test's own flags ask:
// under -failfast (which gremlins passes for every mutant) the suite stops
// at its first failing spec, so a broken variant that makes many specs wait
// out their bounds fails at the first instead of timing out.
package suite

import (
	"flag"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"
)

// Run registers Gomega's fail handler and runs the package's specs under
// the configuration of [Config].
func Run(t *testing.T, description string) bool {
	gomega.RegisterFailHandler(ginkgo.Fail)
	s, r := Config()
	return ginkgo.RunSpecs(t, description, s, r)
}

// Config is Ginkgo's configuration from its own flags, with FailFast also
// set when go test runs with -failfast.
func Config() (types.SuiteConfig, types.ReporterConfig) {
	s, r := ginkgo.GinkgoConfiguration()
	if f := flag.Lookup("test.failfast"); f != nil && f.Value.String() == "true" {
		s.FailFast = true
	}
	return s, r
}
