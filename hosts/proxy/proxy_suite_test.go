package proxy_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/wire"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// testHostArg makes the test binary serve the test host (testhost_test.go)
// on its standard input and output.
const testHostArg = "proxy-test-host"

func TestMain(m *testing.M) {
	// The reference host probes its containment backend by re-executing
	// its binary, this test binary, as the in-sandbox helper.
	builtin.MaybeServe()
	if len(os.Args) == 2 && os.Args[1] == testHostArg {
		if err := wire.Serve(context.Background(), os.Stdin, os.Stdout, &testHost{}); err != nil {
			fmt.Fprintln(os.Stderr, "test host:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestProxy(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "hosts/proxy")
}
