package main

import (
	"testing"

	"github.com/galaxy-stack/conform/matrix/session"
	"github.com/galaxy-stack/conform/reports"
)

// An item skipped because the host is dead was not certified: it counts
// toward exit status 1 even when no item failed.
func TestDeadHostSkipsAreCounted(t *testing.T) {
	doc := &reports.Document{Items: []reports.Item{
		{ID: 1, Status: reports.Passed},
		{ID: 2, Status: reports.Skipped, Reason: "not run: " + session.DeadHostReason + ": no answer"},
		{ID: 3, Status: reports.Skipped, Reason: reports.NotRunReason},
	}}
	if n := deadHostSkips(doc); n != 1 {
		t.Errorf("deadHostSkips = %d, want 1", n)
	}
}
