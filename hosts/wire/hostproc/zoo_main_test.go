//go:build linux

package hostproc_test

import (
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
)

var signalIgnoreFn = func() { signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP) }

// TestMain plays a hostile host when a zoo spec re-executes the test binary
// with WIRE_ZOO_HOST set, and otherwise runs the tests as a subreaper, as
// cmd/conform does.
func TestMain(m *testing.M) {
	if mode := os.Getenv(zooEnv); mode != "" {
		zooHost(mode)
		os.Exit(0)
	}
	_ = hostproc.Supervise()
	os.Exit(m.Run())
}
