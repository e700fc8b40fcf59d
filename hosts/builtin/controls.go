package builtin

import (
	"context"
	"encoding/json"
	"os"

	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
)

// The control hosts: the reference host made to fail in a way that breaks
// no sentence of the contract in particular, only the host itself. `conform
// selftest` certifies them to show its kill rule credits a kill only to a
// check that saw the broken guarantee: every item they fail must count as
// collateral, never as a kill.
const (
	// ControlCrash exits (status 3) on every tool/execute call.
	ControlCrash = "control-crash"
	// ControlHang answers initialize and nothing after it.
	ControlHang = "control-hang"
	// ControlGarbage answers every tool/execute call with a line that is
	// not JSON-RPC.
	ControlGarbage = "control-garbage"
)

// Controls lists the control hosts.
func Controls() []string { return []string{ControlCrash, ControlGarbage, ControlHang} }

// control wraps the reference host in the failure of control name.
func control(name string) jsonrpc.Handler {
	h := newReference(reference.Options{})
	return jsonrpc.HandlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		switch {
		case method == wire.MethodInitialize || method == wire.MethodShutdown:
		case name == ControlHang:
			<-ctx.Done()
			return nil, ctx.Err()
		case method != wire.MethodExecute:
		case name == ControlCrash:
			os.Exit(3)
		case name == ControlGarbage:
			os.Stdout.WriteString("this line is not JSON-RPC\n")
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return h.Handle(ctx, method, params)
	})
}
