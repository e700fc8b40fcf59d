package lab

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/galaxy-stack/conform/fixtures"
)

const ownScenario = "06-nonzero-exit-truncation/nonzero-exit.json"

func TestAByteIdenticalCopyOfAnEmbeddedScenarioIsConformsOwn(t *testing.T) {
	data, err := fs.ReadFile(fixtures.Matrix(), ownScenario)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	same := filepath.Join(dir, "anywhere.json")
	if err := os.WriteFile(same, data, 0o644); err != nil {
		t.Fatal(err)
	}
	own, rel, ok := EmbeddedFile(same)
	if !ok || rel != ownScenario || !bytes.Equal(own, data) {
		t.Errorf("EmbeddedFile(copy) = %d bytes, %q, %v; want the embedded %s", len(own), rel, ok, ownScenario)
	}
	for name, other := range map[string][]byte{
		"one byte more":    append(bytes.Clone(data), ' '),
		"one byte changed": bytes.Replace(data, []byte("checked 2"), []byte("checked 3"), 1),
		"one byte less":    data[:len(data)-1],
	} {
		p := filepath.Join(dir, "other.json")
		if err := os.WriteFile(p, other, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, rel, ok := EmbeddedFile(p); ok {
			t.Errorf("%s: the copy is taken for the embedded %s", name, rel)
		}
	}
	if _, _, ok := EmbeddedFile(filepath.Join(dir, "missing.json")); ok {
		t.Errorf("a missing file is taken for an embedded scenario")
	}
}

func TestAFIFOIsNotWaitedOn(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs on Windows")
	}
	p := filepath.Join(t.TempDir(), "fifo.json")
	if err := mkfifo(p); err != nil {
		t.Fatal(err)
	}
	// Without a writer, a blocking open would never return.
	if _, _, ok := EmbeddedFile(p); ok {
		t.Errorf("a FIFO is taken for an embedded scenario")
	}
}
