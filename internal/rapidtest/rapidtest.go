// Package rapidtest runs a rapid property against a recording rapid.TB
// instead of a *testing.T: so a test can assert that the property finds a
// counterexample for a deliberately broken variant, and a matrix item can
// run a property inside the conform binary and report its counterexample.
package rapidtest

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"pgregory.net/rapid"
)

// A Recorder is a rapid.TB that records failures instead of failing the
// test.
type Recorder struct {
	name   string
	failed bool
	logs   []string
}

var _ rapid.TB = (*Recorder)(nil)

// Helper does nothing.
func (r *Recorder) Helper() {}

// Name returns the recorder's name.
func (r *Recorder) Name() string { return r.name }

// Logf records a log line.
func (r *Recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

// Log records a log line.
func (r *Recorder) Log(args ...any) { r.logs = append(r.logs, fmt.Sprint(args...)) }

// Skipf records a log line.
func (r *Recorder) Skipf(format string, args ...any) { r.Logf(format, args...) }

// Skip records a log line.
func (r *Recorder) Skip(args ...any) { r.Log(args...) }

// SkipNow does nothing.
func (r *Recorder) SkipNow() {}

// Errorf records a failure.
func (r *Recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.Logf(format, args...)
}

// Error records a failure.
func (r *Recorder) Error(args ...any) {
	r.failed = true
	r.Log(args...)
}

// Fatalf records a failure.
func (r *Recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

// Fatal records a failure.
func (r *Recorder) Fatal(args ...any) { r.Error(args...) }

// FailNow records a failure.
func (r *Recorder) FailNow() { r.failed = true }

// Fail records a failure.
func (r *Recorder) Fail() { r.failed = true }

// Failed reports whether a failure was recorded.
func (r *Recorder) Failed() bool { return r.failed }

// Check runs prop with rapid against a Recorder named name and reports
// whether rapid found a counterexample, with rapid's log. Fail files are not
// written and shrinking is bounded by shrink while it runs.
func Check(name string, shrink time.Duration, prop func(*rapid.T)) (failed bool, log string) {
	return Run(name, map[string]string{"rapid.nofailfile": "true", "rapid.shrinktime": shrink.String()}, prop)
}

// Run runs prop with rapid against a Recorder named name, with rapid's
// flags (such as "rapid.checks", "rapid.seed") set to flags while it runs,
// and reports whether rapid found a counterexample, with rapid's log.
func Run(name string, flags map[string]string, prop func(*rapid.T)) (failed bool, log string) {
	restore := setFlags(flags)
	defer restore()
	rec := &Recorder{name: name}
	rapid.Check(rec, prop)
	return rec.failed, strings.Join(rec.logs, "\n")
}

// DefaultChecks makes rapid run n cases per property unless -rapid.checks
// on the command line or the RAPID_CHECKS environment variable already
// chose a number. Call it from TestMain after flag.Parse.
func DefaultChecks(n int) {
	if _, ok := os.LookupEnv("RAPID_CHECKS"); ok {
		return
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set {
		if err := flag.Set("rapid.checks", fmt.Sprint(n)); err != nil {
			panic(fmt.Sprintf("rapidtest: setting -rapid.checks: %v", err))
		}
	}
}

// setFlags sets rapid's flags and returns a function that restores them.
func setFlags(values map[string]string) func() {
	old := map[string]string{}
	for name, v := range values {
		f := flag.Lookup(name)
		if f == nil {
			continue
		}
		old[name] = f.Value.String()
		if err := f.Value.Set(v); err != nil {
			panic(fmt.Sprintf("rapidtest: setting -%s: %v", name, err))
		}
	}
	return func() {
		for name, v := range old {
			_ = flag.Lookup(name).Value.Set(v)
		}
	}
}
