// Package hosttest holds the deliberately broken hosts that several test
// suites serve from their own test binary, and the initialize request those
// suites send a host. It is test support built on the
// reference host, so it lives under hosts beside it: nothing below hosts
// (core, doubles, internal) imports it.
package hosttest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
)

// Hanging configures ServeHanging.
type Hanging struct {
	// Marker, if set, is a file created when a tool/execute starts to
	// hang, so that a test knows the host is wedged.
	Marker string
	// Hard makes the host ignore shutdown too: it then ends only with its
	// input or when it is killed.
	Hard bool
}

// ServeHanging serves the reference host on standard input and output
// with tool/execute never answering, cancelled or not — except calls whose
// callId starts with "ok-" — until shutdown (unless Hard) or the end of its
// input; then it exits 0.
func ServeHanging(cfg Hanging) {
	stop := make(chan struct{})
	var once sync.Once
	quit := func() { once.Do(func() { close(stop) }) }
	ref := reference.New()
	h := jsonrpc.HandlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		switch method {
		case wire.MethodExecute:
			var p wire.ExecuteParams
			if json.Unmarshal(params, &p) == nil && strings.HasPrefix(p.CallID, "ok-") {
				break
			}
			if cfg.Marker != "" {
				_ = os.WriteFile(cfg.Marker, nil, 0o644)
			}
			<-stop
			return nil, errors.New("stopped")
		case wire.MethodShutdown:
			if cfg.Hard {
				<-stop
				return nil, errors.New("stopped")
			}
			quit()
		}
		return ref.Handle(ctx, method, params)
	})
	_ = kit.Serve(context.Background(), &eofReader{r: os.Stdin, eof: quit}, os.Stdout, h)
	os.Exit(0)
}

// eofReader calls eof when r ends.
type eofReader struct {
	r   io.Reader
	eof func()
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil {
		e.eof()
	}
	return n, err
}
