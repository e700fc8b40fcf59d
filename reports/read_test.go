package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func docJSON(t testing.TB, d *Document) []byte {
	t.Helper()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.json")
	if err := WriteFile(one, shard("h", 1, 2)); err != nil {
		t.Fatal(err)
	}
	docs, err := ReadFile(one, DefaultMaxDocumentSize)
	if err != nil || len(docs) != 1 || len(docs[0].Items) != 2 {
		t.Fatalf("ReadFile = %v, %v", docs, err)
	}
	m, err := Merge(inputs(shard("h", 1), shard("g", 2)))
	if err != nil {
		t.Fatal(err)
	}
	merged := filepath.Join(dir, "merged.json")
	if err := WriteJSON(merged, m); err != nil {
		t.Fatal(err)
	}
	if docs, err := ReadFile(merged, DefaultMaxDocumentSize); err != nil || len(docs) != 2 {
		t.Fatalf("ReadFile of a merge document = %d documents, %v", len(docs), err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.json"), DefaultMaxDocumentSize); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file = %v", err)
	}
}

// TestReadRefusesLargeDocuments checks the size bound: a file over it is
// refused before it is read, and so is a stream found to hold more.
func TestReadRefusesLargeDocuments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	data := docJSON(t, shard("h", 1, 2, 3))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	max := int64(len(data) - 1)
	_, err := ReadFile(path, max)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != int64(len(data)) || tl.Max != max {
		t.Fatalf("ReadFile over the bound = %v, want a TooLargeError with the size", err)
	}
	if !strings.Contains(err.Error(), "--max-document-size") || !strings.Contains(err.Error(), path) {
		t.Errorf("the error does not name the file and the flag: %v", err)
	}
	if docs, err := ReadFile(path, int64(len(data))); err != nil || len(docs) != 1 {
		t.Errorf("ReadFile at exactly the bound = %v", err)
	}
	// A stream is read up to the bound and no further.
	r := &countingReader{r: io.MultiReader(bytes.NewReader(data), infinite{})}
	if _, err := Read(r, "stdin", 1<<20); !errors.As(err, &tl) || tl.Size != -1 {
		t.Errorf("Read of an endless stream = %v, want a TooLargeError", err)
	}
	if r.n > 1<<20+1 {
		t.Errorf("Read read %d bytes of a stream bounded to %d", r.n, 1<<20)
	}
	if _, err := Read(bytes.NewReader(data), "x", 0); err == nil {
		t.Error("Read with a bound of 0 succeeded")
	}
}

type infinite struct{}

func (infinite) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// FuzzRead feeds the result-document reader arbitrary bytes: it must
// return documents or an error, never panic, and what it accepts must
// render in every format and survive a write and a second read.
func FuzzRead(f *testing.F) {
	f.Add(docJSON(f, shard("h", 1, 2)))
	m, _ := Merge(inputs(shard("h", 1), shard("g", 2)))
	mb, _ := json.Marshal(m)
	f.Add(mb)
	f.Add([]byte(`{"schemaVersion": "2", "kind": "merge", "documents": [{}]}`))
	f.Add([]byte(`{"schemaVersion": "1"}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := Read(bytes.NewReader(data), "fuzz", 1<<20)
		if err != nil {
			return
		}
		for _, r := range []Renderer{RenderMarkdown, RenderHTML, RenderJUnit} {
			if err := r(io.Discard, docs...); err != nil && len(docs) > 0 {
				t.Fatalf("a document Read accepted does not render: %v", err)
			}
		}
		for _, d := range docs {
			again, err := Read(bytes.NewReader(docJSON(t, d)), "again", 1<<21)
			if err != nil || len(again) != 1 {
				t.Fatalf("a document Read accepted does not read again: %v", err)
			}
		}
	})
}
