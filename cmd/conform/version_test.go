package main

import (
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/reports"
)

// TestVersionText: `conform version` names the commit the build recorded,
// marks a modified tree, and says "unknown" when there is none.
func TestVersionText(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		h    reports.Harness
		want string
	}{
		{reports.Harness{Version: "v1.2.3", Commit: rev}, "commit: " + rev + "\n"},
		{reports.Harness{Version: "v1.2.3", Commit: rev, Modified: true}, "commit: " + rev + " (modified)\n"},
		{reports.Harness{Version: "v1.2.3"}, "commit: unknown\n"},
	} {
		got := versionText(tc.h)
		want := "conform v1.2.3 (matrix " + matrix.Version + ")\n" + tc.want
		if got != want {
			t.Errorf("versionText(%+v) = %q, want %q", tc.h, got, want)
		}
		if strings.Count(got, "\n") != 2 {
			t.Errorf("versionText(%+v) = %q, want two lines", tc.h, got)
		}
	}
}
