package main

import (
	"strings"
	"testing"
)

// The self-test's lines spell extension items as everywhere else, and are
// numbered out of the total announced.
func TestSelftestProgress(t *testing.T) {
	var b strings.Builder
	p := &selftestProgress{w: &b, total: 2}
	p.Write([]byte("killed   mutant research-leak items 101,102,13 → failed 102\nsurv"))
	p.Write([]byte("ived mutant x items 7 → none failed\n"))
	want := "[1/2] killed   mutant research-leak items R1,R2,13 → failed R2\n[2/2] survived mutant x items 7 → none failed\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if got := respellItems("the reference host fails item 107: boom"); got != "the reference host fails item R7: boom" {
		t.Errorf("respellItems = %q", got)
	}
}
