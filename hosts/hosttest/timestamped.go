package hosttest

import (
	"context"
	"encoding/json"
	"os"
	"time"

	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
)

// ServeTimestamped serves the reference host on standard input and output
// with one nondeterminism: write_file appends a line holding the current
// time (to the nanosecond) to the content it writes, so the write evidence
// of its result, and the final workspace, differ from run to run. It exits
// 0 when the harness shuts it down or its input ends.
func ServeTimestamped() {
	ref := reference.New()
	h := jsonrpc.HandlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		if method == wire.MethodExecute {
			params = stamp(params)
		}
		return ref.Handle(ctx, method, params)
	})
	_ = kit.Serve(context.Background(), os.Stdin, os.Stdout, h)
	os.Exit(0)
}

// stamp appends the time to the content argument of a write_file call.
func stamp(params json.RawMessage) json.RawMessage {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return params
	}
	var name string
	var args map[string]any
	if json.Unmarshal(p["modelName"], &name) != nil || name != "write_file" || json.Unmarshal(p["arguments"], &args) != nil {
		return params
	}
	content, ok := args["content"].(string)
	if !ok {
		return params
	}
	args["content"] = content + "written at " + time.Now().Format(time.RFC3339Nano) + "\n"
	b, err := json.Marshal(args)
	if err != nil {
		return params
	}
	p["arguments"] = b
	out, err := json.Marshal(p)
	if err != nil {
		return params
	}
	return out
}
