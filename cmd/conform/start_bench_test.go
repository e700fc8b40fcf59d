package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/internal/floor"
)

// benchInitParams are the initialize params certify sends the reference
// host, for a fresh workspace and store under dir.
func benchInitParams(tb testing.TB, dir string) wire.InitializeParams {
	ws, store := filepath.Join(dir, "workspace"), filepath.Join(dir, "store")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		tb.Fatal(err)
	}
	return hosttest.InitializeParams(ws, store)
}

// startAnswer starts argv through hostproc, as certify starts a host,
// sends it one request with p (initialize for a host, an echo for the
// echo child), closes it and returns how long it took from the start to
// the answer.
func startAnswer(tb testing.TB, argv, env []string, p wire.InitializeParams, initialize bool) time.Duration {
	start := time.Now()
	c, err := hostproc.Start(argv, hostproc.StartOptions{Env: env, CallTimeout: 20 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	if initialize {
		res, err := c.Initialize(context.Background(), p)
		if err != nil || res.Containment.Backend == "" {
			_ = c.Close(time.Second)
			tb.Fatalf("initialize: %v (containment backend %q)", err, res.Containment.Backend)
		}
	} else if err := c.Call(context.Background(), "bench/echo", p, 20*time.Second, nil); err != nil {
		_ = c.Close(time.Second)
		tb.Fatalf("echo: %v", err)
	}
	answered := time.Since(start)
	if err := c.Close(5 * time.Second); err != nil && initialize {
		tb.Fatalf("close: %v", err)
	}
	return answered
}

// BenchmarkProcessStart measures, in one loop so that each figure meets
// the same load, what a conform process costs to start against a bare Go
// binary built beside it:
//
//   - hello-ms: the bare binary, started and waited for (the floor);
//   - version-ms and version/hello: `conform version`; version-cpu/hello-cpu
//     compares the CPU time (user and system) of the two processes, which
//     load moves less than their wall time;
//   - serve-init-ms and serve-init/hello: `conform host serve reference`
//     started through hostproc, as certify starts it, until it answers
//     initialize (the containment probe cache is warm);
//   - echo-init-ms: a line-echo Go child started through hostproc, until it
//     answers the same initialize params over the same pipes and framer;
//     serve-init/echo is the host's figure against that floor.
//
// Every figure is the median of the loop's samples.
func BenchmarkProcessStart(b *testing.B) {
	dir := b.TempDir()
	hello, echo, conform := floor.Hello(b, dir), floor.Echo(b, dir), floor.Conform(b, dir)
	env := append(os.Environ(), hostproc.CacheEnv+"="+filepath.Join(dir, "cache"))
	p := benchInitParams(b, dir)
	serve := []string{conform, "host", "serve", "reference"}
	startAnswer(b, serve, env, p, true) // warms the containment probe cache
	var helloS, versionS, serveS, echoS, helloCPU, versionCPU floor.Samples
	for b.Loop() {
		w, c := floor.Run(b, hello)
		helloS, helloCPU = append(helloS, w), append(helloCPU, c)
		w, c = floor.Run(b, conform, "version")
		versionS, versionCPU = append(versionS, w), append(versionCPU, c)
		serveS = append(serveS, startAnswer(b, serve, env, p, true))
		echoS = append(echoS, startAnswer(b, []string{echo}, env, p, false))
	}
	h, v, s, e := helloS.Median(), versionS.Median(), serveS.Median(), echoS.Median()
	b.ReportMetric(floor.Ms(h), "hello-ms")
	b.ReportMetric(floor.Ms(v), "version-ms")
	b.ReportMetric(floor.Ratio(v, h), "version/hello")
	b.ReportMetric(floor.Ratio(versionCPU.Median(), helloCPU.Median()), "version-cpu/hello-cpu")
	b.ReportMetric(floor.Ms(s), "serve-init-ms")
	b.ReportMetric(floor.Ratio(s, h), "serve-init/hello")
	b.ReportMetric(floor.Ms(e), "echo-init-ms")
	b.ReportMetric(floor.Ratio(s, e), "serve-init/echo")
}
