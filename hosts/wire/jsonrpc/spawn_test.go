package jsonrpc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
)

// goroutineID returns the running goroutine's number, from its stack
// header ("goroutine 7 [running]:").
func goroutineID() string {
	b := make([]byte, 64)
	b = b[:runtime.Stack(b, false)]
	return string(bytes.Fields(b)[1])
}

// TestHandlerGoroutinesAreReusedAndEnd checks that requests answered one
// after another run on the goroutine the first one started, that
// requests in flight together still run at once, and that the
// goroutines end with the connection.
func TestHandlerGoroutinesAreReusedAndEnd(t *testing.T) {
	ids := make(chan string, 64)
	release := make(chan struct{})
	h := jsonrpc.HandlerFunc(func(ctx context.Context, method string, p json.RawMessage) (any, error) {
		ids <- goroutineID()
		if method == "block" {
			<-release
		}
		return map[string]any{}, nil
	})
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	srv := jsonrpc.NewConn(jsonrpc.NewLineFramer(sr, sw), jsonrpc.ConnOptions{Handler: h, WriteStall: -1})
	srvDone := make(chan struct{})
	go func() { _ = srv.Run(context.Background()); close(srvDone) }()
	c := jsonrpc.NewConn(jsonrpc.NewLineFramer(cr, cw), jsonrpc.ConnOptions{WriteStall: -1})
	go func() { _ = c.Run(context.Background()) }()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	seen := map[string]bool{}
	for range 20 {
		if _, err := c.Call(ctx, "quick", nil); err != nil {
			t.Fatal(err)
		}
		seen[<-ids] = true
	}
	if len(seen) > 2 {
		t.Errorf("20 requests in turn ran on %d goroutines; want the first one's reused", len(seen))
	}

	errs := make(chan error, 2)
	for range 2 {
		go func() { _, err := c.Call(ctx, "block", nil); errs <- err }()
	}
	a, b := <-ids, <-ids // both handlers entered before either may return
	close(release)
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if a == b {
		t.Errorf("two requests in flight together ran on one goroutine (%s)", a)
	}
	seen[a], seen[b] = true, true

	cw.Close()
	<-srvDone
	srv.Wait()
	sw.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		buf := make([]byte, 1<<20)
		all := string(buf[:runtime.Stack(buf, true)])
		left := ""
		for id := range seen {
			if strings.Contains(all, "goroutine "+id+" [") {
				left = id
			}
		}
		if left == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("handler goroutine %s still runs after the connection ended", left)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
