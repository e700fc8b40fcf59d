package hosttest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
)

// ServeAlteredInitialize serves the reference host on standard input and
// output with its initialize answer, as a JSON object, changed by alter;
// every other answer is the reference host's. It exits 0 when its input
// ends, and 1, saying why on standard error, when serving fails.
func ServeAlteredInitialize(alter func(result map[string]any)) {
	ref := reference.New()
	h := jsonrpc.HandlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		res, err := ref.Handle(ctx, method, params)
		if method != wire.MethodInitialize || err != nil {
			return res, err
		}
		b, err := json.Marshal(res)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		alter(m)
		return m, nil
	})
	if err := kit.Serve(context.Background(), os.Stdin, os.Stdout, h); err != nil {
		fmt.Fprintln(os.Stderr, "altered host:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Storeless declares neither a store nor a trace in an initialize answer
// (capabilities.store and capabilities.trace false), so that the
// harness's memory doubles stand in.
func Storeless(result map[string]any) {
	c := result["capabilities"].(map[string]any)
	c["store"], c["trace"] = false, false
}
