package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/galaxy-stack/conform/internal/redact"
)

// TestIsTerminalDevNull: /dev/null is a character device but not a
// terminal, bare or behind the redactor main installs, so output sent
// there gets neither colour nor the live progress line.
func TestIsTerminalDevNull(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("isTerminal(%s) = true, want false", os.DevNull)
	}
	if isTerminal(redact.Writer(f)) {
		t.Errorf("isTerminal(redact.Writer(%s)) = true, want false", os.DevNull)
	}
	if isTerminal(&bytes.Buffer{}) {
		t.Error("isTerminal(buffer) = true, want false")
	}
}
