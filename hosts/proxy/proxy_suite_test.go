package proxy_test

import (
	"os"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/internal/suite"
)

func TestMain(m *testing.M) {
	// Every spec runs the reference host as its own process: the test
	// binary re-executed as `host serve reference` (which also serves the
	// containment probe's in-sandbox helper).
	builtin.MaybeServeTest()
	os.Exit(m.Run())
}

func TestProxy(t *testing.T) {
	suite.Run(t, "hosts/proxy")
}
