package checkpoint

import (
	"flag"
	"fmt"
	"strings"

	. "github.com/onsi/gomega"
	"pgregory.net/rapid"
)

// recorder is a rapid.TB that records failures instead of failing the
// test, so a spec can assert that a property fails for a broken variant.
type recorder struct {
	name   string
	failed bool
	logs   []string
}

var _ rapid.TB = (*recorder)(nil)

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return r.name }
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}
func (r *recorder) Log(args ...any)                  { r.logs = append(r.logs, fmt.Sprint(args...)) }
func (r *recorder) Skipf(format string, args ...any) { r.Logf(format, args...) }
func (r *recorder) Skip(args ...any)                 { r.Log(args...) }
func (r *recorder) SkipNow()                         {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.Logf(format, args...)
}
func (r *recorder) Error(args ...any) {
	r.failed = true
	r.Log(args...)
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
func (r *recorder) Fatal(args ...any)                 { r.Error(args...) }
func (r *recorder) FailNow()                          { r.failed = true }
func (r *recorder) Fail()                             { r.failed = true }
func (r *recorder) Failed() bool                      { return r.failed }

// expectPropertyFails runs prop with rapid against a recorder and asserts
// that rapid finds a counterexample. Fail files are not written and
// shrinking is kept short while it runs.
func expectPropertyFails(name string, prop func(*rapid.T)) string {
	restore := setFlags(map[string]string{"rapid.nofailfile": "true", "rapid.shrinktime": "500ms"})
	defer restore()
	rec := &recorder{name: name}
	rapid.Check(rec, prop)
	ExpectWithOffset(1, rec.failed).To(BeTrue(), "the property did not catch the broken variant %q", name)
	return strings.Join(rec.logs, "\n")
}

// setFlags sets flags and returns a function that restores them.
func setFlags(values map[string]string) func() {
	old := map[string]string{}
	for name, v := range values {
		f := flag.Lookup(name)
		old[name] = f.Value.String()
		if err := f.Value.Set(v); err != nil {
			panic(err)
		}
	}
	return func() {
		for name, v := range old {
			_ = flag.Lookup(name).Value.Set(v)
		}
	}
}
