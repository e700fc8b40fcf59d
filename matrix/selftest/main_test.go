package selftest_test

import (
	"os"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
)

// TestMain lets the test binary serve the reference host: the core-fault test
// starts it as `<test binary> host serve reference`.
func TestMain(m *testing.M) {
	builtin.MaybeServeTest()
	os.Exit(m.Run())
}
