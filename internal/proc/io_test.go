package proc

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestHeadKeepsTheFirstBytesAndSwallowsTheRest(t *testing.T) {
	var kept strings.Builder
	h := &Head{W: &kept, N: 5}
	for _, chunk := range []string{"abc", "defg", "hij"} {
		if n, err := h.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("Write(%q) = %d, %v; want %d, nil", chunk, n, err, len(chunk))
		}
	}
	if kept.String() != "abcde" {
		t.Errorf("kept %q, want the first five bytes %q", kept.String(), "abcde")
	}
}

func TestReadPIDsTakesOnlyPositiveIntegers(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		content string
		want    []int
		fails   bool
	}{
		{"12\n34\n", []int{12, 34}, false},
		{"", nil, false},
		{"12\nabc\n", nil, true},
		{"0\n", nil, true},
		{"-5\n", nil, true},
	} {
		f := filepath.Join(dir, "pids.txt")
		if err := os.WriteFile(f, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadPIDs(f)
		if (err != nil) != c.fails || !slices.Equal(got, c.want) {
			t.Errorf("ReadPIDs of %q = %v, %v; want %v, failing %v", c.content, got, err, c.want, c.fails)
		}
	}
	if _, err := ReadPIDs(filepath.Join(dir, "missing.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadPIDs of a missing file: %v, want fs.ErrNotExist", err)
	}
}
