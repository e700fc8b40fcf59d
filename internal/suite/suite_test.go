package suite

import (
	"flag"
	"testing"
)

func TestConfigFailsFastUnderGoTestFailfast(t *testing.T) {
	f := flag.Lookup("test.failfast")
	if f == nil {
		t.Fatal("no -test.failfast flag: is this a go test binary?")
	}
	old := f.Value.String()
	t.Cleanup(func() { _ = flag.Set("test.failfast", old) })
	for _, want := range []bool{false, true} {
		if err := flag.Set("test.failfast", map[bool]string{false: "false", true: "true"}[want]); err != nil {
			t.Fatal(err)
		}
		if s, _ := Config(); s.FailFast != want {
			t.Errorf("with -failfast=%v, FailFast = %v", want, s.FailFast)
		}
	}
}
