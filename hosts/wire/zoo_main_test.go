//go:build linux

package wire_test

import (
	"encoding/json"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/galaxy-stack/conform/hosts/wire"
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
	_ = wire.Supervise()
	os.Exit(m.Run())
}

// executeParams returns valid tool/execute params for callID.
func executeParams(callID, modelName string) wire.ExecuteParams {
	return wire.ExecuteParams{CallID: callID, ModelName: modelName, Arguments: json.RawMessage(`{}`), IdempotencyKey: "k-" + callID,
		TimeoutMs: 1000, Context: wire.RunContext{RunID: "r", TaskID: "t", Mode: "auto"}}
}
