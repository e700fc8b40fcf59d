package reports

import "runtime/debug"

// version is conform's version. A release build sets it with
// -ldflags "-X github.com/galaxy-stack/conform/reports.version=v1.2.3".
var version = "0.1.0-dev"

// Version returns conform's version.
func Version() string { return version }

// NewHarness describes this build of conform: its version and, when the
// binary was built from a git checkout, the commit and whether the tree
// had local changes.
func NewHarness() Harness {
	h := Harness{Name: "conform", Version: version}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				h.Commit = s.Value
			case "vcs.modified":
				h.Modified = s.Value == "true"
			}
		}
	}
	return h
}
