package main

// A figure is one row of BENCHMARKS.md: a metric a benchmark reports, what
// it is measured against, and the goal it is judged by.
type figure struct {
	Bench   string  // benchmark function, as "BenchmarkContentHash"
	Unit    string  // the b.ReportMetric unit holding the figure
	What    string  // what is measured
	Floor   string  // what it is measured against
	Goal    float64 // the figure must be at most Goal; 0 means tracked, no goal
	Command string  // the command that measures it alone
}

// figures are the rows, in BENCHMARKS.md's order. The goals are those of
// BENCHMARKS.md; change both together.
var figures = []figure{
	{"BenchmarkProcessStart", "version/hello", "`conform version` start", "bare Go binary start (hello-ms)", 3,
		"go test ./cmd/conform -run '^$' -bench ProcessStart -benchtime 20x"},
	{"BenchmarkProcessStart", "version-cpu/hello-cpu", "the same, CPU time (user + system) of the process", "bare Go binary's CPU time", 3,
		"go test ./cmd/conform -run '^$' -bench ProcessStart -benchtime 20x"},
	{"BenchmarkProcessStart", "serve-init/hello", "`conform host serve reference` start until it answers initialize", "bare Go binary start (hello-ms)", 0,
		"go test ./cmd/conform -run '^$' -bench ProcessStart -benchtime 20x"},
	{"BenchmarkProcessStart", "serve-init-ms", "the same, milliseconds (median; warm containment probe cache)", "—", 15,
		"go test ./cmd/conform -run '^$' -bench ProcessStart -benchtime 20x"},
	{"BenchmarkProcessStart", "serve-init/echo", "the same, against a line-echo child", "line-echo child start + one round trip through hostproc (echo-init-ms)", 0,
		"go test ./cmd/conform -run '^$' -bench ProcessStart -benchtime 20x"},
	{"BenchmarkExecuteRoundTrip", "execute/echo", "trivial `tool/execute` (read_file) round trip on a warm reference host", "line-echo child round trip, same params, pipes and framer (echo-us)", 3,
		"go test ./hosts/reference -run '^$' -bench ExecuteRoundTrip -benchtime 300x"},
	{"BenchmarkControllerRound", "one-call/batched", "controller time per tool call, one call per round", "the same, 50 calls per round (batched-us/call)", 2,
		"go test ./core/run -run '^$' -bench ControllerRound -benchtime 30x"},
	{"BenchmarkControllerRound", "one-call-round/floor", "controller time per one-call round", "canonical JSON + SHA-256 of that round's model request (floor-us/round)", 0,
		"go test ./core/run -run '^$' -bench ControllerRound -benchtime 30x"},
	{"BenchmarkContentHash", "jcs-sha/sha", "checkpoint content hash (canonical JSON + SHA-256)", "SHA-256 alone of the same bytes (sha-ns)", 3,
		"go test ./core/checkpoint -run '^$' -bench ContentHash -benchtime 3000x"},
	{"BenchmarkMessageMemory", "peak-heap/msg", "peak heap growth receiving one 32 MiB host message", "the message's size", 3,
		"go test ./hosts/wire/hostproc -run '^$' -bench MessageMemory -benchtime 5x"},
	{"BenchmarkMessageMemory", "alloc/msg", "the same, bytes allocated in all", "the message's size", 0,
		"go test ./hosts/wire/hostproc -run '^$' -bench MessageMemory -benchtime 5x"},
	{"BenchmarkCommandOutputRSS", "host-rss-growth-MiB", "reference host peak RSS growth while a command emits 64 MiB (MiB)", "—", 16,
		"go test ./hosts/reference -run '^$' -bench CommandOutputRSS -benchtime 3x"},
}

// floorUnits name, for a figure's unit, the metric holding its floor's own
// value, printed beside the figure.
var floorUnits = map[string]string{
	"version/hello":        "hello-ms",
	"serve-init/hello":     "hello-ms",
	"serve-init/echo":      "echo-init-ms",
	"execute/echo":         "echo-us",
	"one-call/batched":     "batched-us/call",
	"one-call-round/floor": "floor-us/round",
	"jcs-sha/sha":          "sha-ns",
}
