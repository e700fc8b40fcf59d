package reports

import "runtime/debug"

// NewHarness identifies this conform build: version as the command line
// sets it, and the VCS revision and dirty flag from the build info when
// the build recorded them.
func NewHarness(version string) Harness {
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
