package command_test

import (
	"os"
	"testing"

	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/internal/suite"
)

// probeHelperArg makes the test binary act as the in-sandbox probe helper,
// the way the host binary's hidden subcommand does.
const probeHelperArg = "command-containment-probe-helper"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == probeHelperArg {
		os.Exit(command.ProbeHelperMain(os.Stdout))
	}
	os.Exit(m.Run())
}

func TestCommand(t *testing.T) {
	suite.Run(t, "command")
}

// prober is the one Prober of the test process, as in a host.
var prober = command.NewProber(command.ProberConfig{HelperArgs: []string{probeHelperArg}})
