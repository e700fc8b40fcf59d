package lab_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/internal/suite"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
)

// storelessHostArg makes the test binary serve the reference host with its
// store and trace hidden, so that the harness's memory doubles stand in.
const storelessHostArg = "lab-storeless-host"

func TestMain(m *testing.M) {
	builtin.MaybeServeTest()
	if len(os.Args) == 2 && os.Args[1] == storelessHostArg {
		serveStoreless()
	}
	if len(os.Args) == 2 && os.Args[1] == hangingHostArg {
		hosttest.ServeHanging(hosttest.Hanging{})
	}
	os.Exit(m.Run())
}

func TestLab(t *testing.T) {
	suite.Run(t, "lab")
}

// serveStoreless serves the reference host, answering initialize with
// capabilities that offer no store and no trace.
func serveStoreless() {
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
		var init wire.InitializeResult
		if err := json.Unmarshal(b, &init); err != nil {
			return nil, err
		}
		init.Capabilities.Store, init.Capabilities.Trace = false, false
		return init, nil
	})
	if err := kit.Serve(context.Background(), os.Stdin, os.Stdout, h); err != nil {
		fmt.Fprintln(os.Stderr, "storeless host:", err)
		os.Exit(1)
	}
	os.Exit(0)
}
