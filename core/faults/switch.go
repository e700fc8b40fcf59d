package faults

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// switches holds one counter per fault: the fault is on while its counter
// is positive, so nested Enable calls undo cleanly. The map is built once
// and never written afterwards, so reading it needs no lock.
var switches = func() map[string]*atomic.Int32 {
	m := make(map[string]*atomic.Int32, len(registry))
	for _, f := range registry {
		m[f.Name] = new(atomic.Int32)
	}
	return m
}()

// On reports whether the fault called name is enabled. It is an atomic load,
// cheap enough for the core to call at every rule. A name that is not a
// registered fault is a bug in the caller, and On panics on it.
func On(name string) bool {
	s, ok := switches[name]
	if !ok {
		panic(fmt.Sprintf("faults: On(%q): no such fault", name))
	}
	return s.Load() > 0
}

// Enable turns the fault called name on for the whole process until undo is
// called; undo is safe to call more than once. Tests call undo in a cleanup.
// An unknown name is an error that lists the known ones.
func Enable(name string) (undo func(), err error) {
	s, ok := switches[name]
	if !ok {
		return nil, fmt.Errorf("faults: unknown core fault %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	s.Add(1)
	var once sync.Once
	return func() { once.Do(func() { s.Add(-1) }) }, nil
}

// Enabled returns the names of the faults that are on, sorted, so a report
// can say which core faults a run had.
func Enabled() []string {
	var out []string
	for _, n := range Names() {
		if On(n) {
			out = append(out, n)
		}
	}
	return out
}
