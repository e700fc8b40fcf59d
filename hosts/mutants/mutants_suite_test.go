package mutants_test

import (
	"os"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/internal/suite"
)

// TestMain lets the test binary act as the host process (`host serve
// reference [--mutant NAME]`) and as the containment probe helper, as the
// conform binary does.
func TestMain(m *testing.M) {
	builtin.MaybeServeTest()
	os.Exit(m.Run())
}

func TestMutants(t *testing.T) {
	suite.Run(t, "mutants")
}
