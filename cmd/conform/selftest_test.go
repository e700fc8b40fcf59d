package main

import (
	"strings"
	"testing"
)

// The self-test's lines are numbered out of the total announced.
func TestSelftestProgress(t *testing.T) {
	var b strings.Builder
	p := &selftestProgress{w: &b, total: 2}
	p.Write([]byte("killed   mutant research-leak items R1,R2,13 → killed by R2\nsurv"))
	p.Write([]byte("ived mutant x items 7 → none failed\n"))
	want := "[1/2] killed   mutant research-leak items R1,R2,13 → killed by R2\n[2/2] survived mutant x items 7 → none failed\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
