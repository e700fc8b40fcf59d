package doubles_test

import (
	"os"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/internal/suite"
)

func TestMain(m *testing.M) {
	// The reference host probes its containment backend by re-executing
	// its binary, this test binary, as the in-sandbox helper.
	builtin.MaybeServeTest()
	os.Exit(m.Run())
}

func TestHost(t *testing.T) {
	suite.Run(t, "hosts/doubles")
}
