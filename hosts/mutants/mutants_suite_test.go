package mutants_test

import (
	"os"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// TestMain lets the test binary act as the host process (`host serve
// reference [--mutant NAME]`) and as the containment probe helper, as the
// conform binary does.
func TestMain(m *testing.M) {
	builtin.MaybeServe()
	os.Exit(m.Run())
}

func TestMutants(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "mutants")
}
