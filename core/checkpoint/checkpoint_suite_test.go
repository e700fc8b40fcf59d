package checkpoint

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

// TestMain makes rapid run 1,000 cases per property unless -rapid.checks
// or RAPID_CHECKS says otherwise.
func TestMain(m *testing.M) { suite.Main(m, suite.RapidChecks(1000)) }

func TestCheckpoint(t *testing.T) {
	suite.Run(t, "checkpoint")
}
