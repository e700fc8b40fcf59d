package reference_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
	"github.com/galaxy-stack/conform/internal/floor"
)

// BenchmarkExecuteRoundTrip measures a trivial tool/execute (read_file of
// a one-line file, a new callId and idempotency key each time) on a started and initialized reference host process,
// against the same params echoed by a line-echo child over the same pipes
// and framer (hostproc), alternating the two in one loop:
//
//   - execute-us: the reference host's round trip;
//   - echo-us: the echo child's (the floor);
//   - execute/echo: the ratio, whose goal is at most 3.
//
// Every figure is the median of the loop's samples.
func BenchmarkExecuteRoundTrip(b *testing.B) {
	argv, err := builtin.Command("reference")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	echo := floor.Echo(b, dir)
	ws, store := filepath.Join(dir, "workspace"), filepath.Join(dir, "store")
	if err := os.Mkdir(ws, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), hostproc.CacheEnv+"="+filepath.Join(dir, "cache"))
	host, err := hostproc.Start(argv, hostproc.StartOptions{Env: env, CallTimeout: 20 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer host.Close(5 * time.Second)
	if _, err := host.Initialize(context.Background(), baseParams(ws, store)); err != nil {
		b.Fatal(err)
	}
	peer, err := hostproc.Start([]string{echo}, hostproc.StartOptions{Env: env, CallTimeout: 20 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer peer.Close(time.Second)
	args, _ := json.Marshal(map[string]any{"path": "a.txt"})
	p := wire.ExecuteParams{ModelName: "read_file", Arguments: args, TimeoutMs: 30000,
		Context: wire.RunContext{RunID: "run-bench", TaskID: "task-1", Mode: "auto"}}
	var execS, echoS floor.Samples
	n := 0
	for b.Loop() {
		n++
		p.CallID, p.IdempotencyKey = "c-"+strconv.Itoa(n), "k-"+strconv.Itoa(n)
		start := time.Now()
		r, err := host.Execute(context.Background(), p)
		execS = append(execS, time.Since(start))
		if err != nil || !r.OK {
			b.Fatalf("read_file: %v %s", err, r.Content)
		}
		start = time.Now()
		if err := peer.Call(context.Background(), "bench/echo", p, 20*time.Second, nil); err != nil {
			b.Fatal(err)
		}
		echoS = append(echoS, time.Since(start))
	}
	x, e := execS.Median(), echoS.Median()
	b.ReportMetric(float64(x.Nanoseconds())/1000, "execute-us")
	b.ReportMetric(float64(e.Nanoseconds())/1000, "echo-us")
	b.ReportMetric(floor.Ratio(x, e), "execute/echo")
}

// BenchmarkExecuteInProcess runs the calls of BenchmarkExecuteRoundTrip
// against a reference host served in this process over pipes, so that a
// CPU profile (-cpuprofile) sees the host's side of the call, which the
// round-trip benchmark runs in another process. It reports no ratio and
// has no goal; ns/op includes the client's side.
func BenchmarkExecuteInProcess(b *testing.B) {
	dir := b.TempDir()
	ws, store := filepath.Join(dir, "workspace"), filepath.Join(dir, "store")
	if err := os.Mkdir(ws, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	cr, hw := io.Pipe()
	hr, cw := io.Pipe()
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = kit.Serve(context.Background(), hr, hw, reference.NewWith(reference.Options{Prober: prober}))
		hw.Close()
	}()
	host := hostproc.Connect(cr, cw, hostproc.StartOptions{CallTimeout: 20 * time.Second})
	defer func() {
		_ = host.Close(5 * time.Second)
		<-served
	}()
	if _, err := host.Initialize(context.Background(), baseParams(ws, store)); err != nil {
		b.Fatal(err)
	}
	args, _ := json.Marshal(map[string]any{"path": "a.txt"})
	p := wire.ExecuteParams{ModelName: "read_file", Arguments: args, TimeoutMs: 30000,
		Context: wire.RunContext{RunID: "run-bench", TaskID: "task-1", Mode: "auto"}}
	n := 0
	for b.Loop() {
		n++
		p.CallID, p.IdempotencyKey = "c-"+strconv.Itoa(n), "k-"+strconv.Itoa(n)
		r, err := host.Execute(context.Background(), p)
		if err != nil || !r.OK {
			b.Fatalf("read_file: %v %s", err, r.Content)
		}
	}
}
