package reference_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/internal/floor"
)

// BenchmarkCommandOutputRSS runs, on a started and initialized reference
// host process, a run_command whose command writes 64 MiB to its standard
// output, and reports how far that raised the host's peak resident set
// (VmHWM, read from /proc) above its level before the first command:
//
//   - host-rss-growth-MiB: the growth (goal: at most 16 MiB, the output
//     is bounded and must be streamed, not held);
//   - harness-rss-growth-MiB: the same for this process, the harness's
//     side of the call.
//
// It needs Linux (/proc) and a POSIX shell with head and tr.
func BenchmarkCommandOutputRSS(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads VmHWM from /proc")
	}
	argv, err := builtin.Command("reference")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	ws, store := filepath.Join(dir, "workspace"), filepath.Join(dir, "store")
	if err := os.Mkdir(ws, 0o755); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), hostproc.CacheEnv+"="+filepath.Join(dir, "cache"))
	approve := func(context.Context, wire.ApprovalParams) (wire.ApprovalDecision, error) {
		return wire.ApprovalDecision{Approved: true, Scope: "once", Reason: "benchmark"}, nil
	}
	host, err := hostproc.Start(argv, hostproc.StartOptions{Env: env, CallTimeout: time.Minute, Approver: approve})
	if err != nil {
		b.Fatal(err)
	}
	defer host.Close(5 * time.Second)
	if _, err := host.Initialize(context.Background(), baseParams(ws, store)); err != nil {
		b.Fatal(err)
	}
	// peaks returns the peak resident sizes of the host and of this
	// process.
	peaks := func() (hostRSS, selfRSS uint64) {
		var err error
		if hostRSS, err = floor.PeakRSS(host.PID()); err == nil {
			selfRSS, err = floor.PeakRSS(os.Getpid())
		}
		if err != nil {
			b.Fatal(err)
		}
		return hostRSS, selfRSS
	}
	hostBase, selfBase := peaks()
	args, _ := json.Marshal(map[string]any{"command": "head -c 67108864 /dev/zero | tr '\\0' x", "timeoutMs": 60000})
	n := 0
	for b.Loop() {
		n++
		r, err := host.Execute(context.Background(), wire.ExecuteParams{CallID: "c-" + strconv.Itoa(n), ModelName: "run_command", Arguments: args,
			IdempotencyKey: "k-" + strconv.Itoa(n), TimeoutMs: 60000, Context: wire.RunContext{RunID: "run-bench", TaskID: "task-1", Mode: "auto"}})
		if err != nil || !r.OK {
			b.Fatalf("run_command: %v %.300s", err, r.Content)
		}
		var out struct {
			ExitCode  int  `json:"exitCode"`
			Truncated bool `json:"truncated"`
		}
		if err := json.Unmarshal([]byte(r.Content), &out); err != nil || out.ExitCode != 0 || !out.Truncated {
			b.Fatalf("run_command did not run to the end with its output truncated: %v %.300s", err, r.Content)
		}
	}
	hostPeak, selfPeak := peaks()
	b.ReportMetric(float64(hostPeak-hostBase)/(1<<20), "host-rss-growth-MiB")
	b.ReportMetric(float64(selfPeak-selfBase)/(1<<20), "harness-rss-growth-MiB")
}
