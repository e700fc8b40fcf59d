package repeat

import (
	"os"
	"slices"
	"sort"
	"strings"
)

// reorderEnv moves the variables a host inherits (PATH, LANG, LC_*, TZ) to
// the end of the process's environment in an order that depends on i —
// sorted, reversed, rotated — so that the host sees them in another order
// (os.Environ keeps the order in which variables were set). It returns
// the order.
func reorderEnv(i int) []string {
	var names []string
	vals := map[string]string{}
	for _, kv := range os.Environ() {
		name, val, _ := strings.Cut(kv, "=")
		if name == "PATH" || name == "LANG" || name == "TZ" || strings.HasPrefix(name, "LC_") {
			names = append(names, name)
			vals[name] = val
		}
	}
	sort.Strings(names)
	switch i % 3 {
	case 1:
		slices.Reverse(names)
	case 2:
		if len(names) > 1 {
			names = append(names[1:], names[0])
		}
	}
	for _, n := range names {
		os.Unsetenv(n)
	}
	for _, n := range names {
		os.Setenv(n, vals[n])
	}
	return names
}

// saveEnv returns a function that puts back TMPDIR and TZ as they were.
func saveEnv() func() {
	type saved struct {
		val string
		set bool
	}
	was := map[string]saved{}
	for _, n := range []string{"TMPDIR", "TZ"} {
		v, ok := os.LookupEnv(n)
		was[n] = saved{v, ok}
	}
	return func() {
		for n, s := range was {
			if s.set {
				os.Setenv(n, s.val)
			} else {
				os.Unsetenv(n)
			}
		}
	}
}
