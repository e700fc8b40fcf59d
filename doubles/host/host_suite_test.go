package host_test

import (
	"os"
	"slices"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/reference/command"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestMain(m *testing.M) {
	// The reference host probes its containment backend by re-executing
	// its binary, this test binary, as the in-sandbox helper.
	if n := len(reference.ProbeHelperArgs); len(os.Args) > n && slices.Equal(os.Args[1:1+n], reference.ProbeHelperArgs) {
		os.Exit(command.ProbeHelperMain(os.Stdout))
	}
	builtin.MaybeServe()
	os.Exit(m.Run())
}

func TestHost(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "doubles/host")
}
