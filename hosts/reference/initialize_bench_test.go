package reference_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
)

// startAndInitialize starts the reference host as its own process, as the
// harness does, and returns how long it took to answer initialize.
func startAndInitialize(tb testing.TB, argv, env []string) time.Duration {
	dir := tb.TempDir()
	ws, store := filepath.Join(dir, "workspace"), filepath.Join(dir, "store")
	if err := os.Mkdir(ws, 0o755); err != nil {
		tb.Fatal(err)
	}
	start := time.Now()
	c, err := hostproc.Start(argv, hostproc.StartOptions{Env: env, CallTimeout: 20 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close(5 * time.Second)
	res, err := c.Initialize(context.Background(), baseParams(ws, store))
	took := time.Since(start)
	if err != nil {
		tb.Fatal(err)
	}
	if res.Containment.Backend == "" {
		tb.Fatal("initialize named no containment backend")
	}
	return took
}

// BenchmarkWarmInitialize measures a host process start and its answer to
// initialize once the containment probe cache is warm (the cache is a
// directory the host creates in a temporary one: a cache directory others
// may write to, such as a 0755 temporary directory, is not trusted, and
// every start would probe again). It reports the median, the figure the warm-start
// budget of 50 ms is about.
func BenchmarkWarmInitialize(b *testing.B) {
	argv, err := builtin.Command("reference")
	if err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "CONFORM_CACHE_DIR="+filepath.Join(b.TempDir(), "cache"))
	startAndInitialize(b, argv, env) // warms the cache
	var samples []time.Duration
	for b.Loop() {
		samples = append(samples, startAndInitialize(b, argv, env))
	}
	slices.Sort(samples)
	b.ReportMetric(float64(samples[len(samples)/2].Microseconds())/1000, "ms-median")
}
