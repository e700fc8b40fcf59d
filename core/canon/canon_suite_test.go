package canon

import (
	"flag"
	"os"
	"testing"

	"github.com/galaxy-stack/conform/internal/rapidtest"
	"github.com/galaxy-stack/conform/internal/suite"
)

// TestMain makes rapid run 1,000 cases per property unless -rapid.checks
// or RAPID_CHECKS says otherwise.
func TestMain(m *testing.M) {
	flag.Parse()
	rapidtest.DefaultChecks(1000)
	os.Exit(m.Run())
}

func TestCanon(t *testing.T) {
	suite.Run(t, "canon")
}
