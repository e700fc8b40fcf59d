package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCertifyReproDir checks where certify's repros go: the flag, else
// repro/ beside --json-report, none for "-" or without a report, and never
// into a path that is a file or a symbolic link.
func TestCertifyReproDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flag, report, want string
		fails              bool
	}{
		{"", "", "", false},
		{"", "out/r.json", filepath.Join("out", "repro"), false},
		{"-", "out/r.json", "", false},
		{"mine", "out/r.json", "mine", false},
		{"mine", "", "mine", false},
		{file, "", "", true},
		{link, "", "", true},
	} {
		got, err := certifyReproDir(c.flag, c.report)
		if (err != nil) != c.fails || !c.fails && got != c.want {
			t.Errorf("certifyReproDir(%q, %q) = %q, %v; want %q (error: %v)", c.flag, c.report, got, err, c.want, c.fails)
		}
	}
}
