package selftest_test

import (
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/internal/suite"
)

// TestMain lets the test binary serve the reference host: the core-fault test
// starts it as `<test binary> host serve reference`.
func TestMain(m *testing.M) { suite.Main(m, builtin.MaybeServeTest) }
