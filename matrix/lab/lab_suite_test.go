package lab_test

import (
	"os"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/internal/suite"
)

// storelessHostArg makes the test binary serve the reference host with its
// store and trace hidden, so that the harness's memory doubles stand in.
const storelessHostArg = "lab-storeless-host"

func TestMain(m *testing.M) {
	builtin.MaybeServeTest()
	if len(os.Args) == 2 && os.Args[1] == storelessHostArg {
		hosttest.ServeAlteredInitialize(hosttest.Storeless)
	}
	if len(os.Args) == 2 && os.Args[1] == hangingHostArg {
		hosttest.ServeHanging(hosttest.Hanging{})
	}
	os.Exit(m.Run())
}

func TestLab(t *testing.T) {
	suite.Run(t, "lab")
}
