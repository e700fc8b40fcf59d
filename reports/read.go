package reports

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// DefaultMaxDocumentSize is how large a result or merge document [ReadFile]
// reads by default: 64 MiB, some thousand times a certification's
// document. Reading one checks it against the schema, which holds the
// whole document in memory several times over, so the bound keeps
// `conform report` of a hostile or corrupt file from taking the machine's
// memory.
const DefaultMaxDocumentSize int64 = 64 << 20

// TooLargeError is the error of a document over the size bound.
type TooLargeError struct {
	// Name names the document (its path).
	Name string
	// Size is the document's size in bytes, or -1 when it was read from a
	// stream and only found to exceed Max.
	Size, Max int64
}

func (e *TooLargeError) Error() string {
	size := "more than"
	if e.Size >= 0 {
		size = fmt.Sprintf("%d bytes,", e.Size)
	}
	return fmt.Sprintf("%s is %s over the limit of %d bytes on a result document; raise --max-document-size if you trust the file", e.Name, size, e.Max)
}

// ReadFile reads the result documents of the file at path, a result
// document or a merge document ([DecodeAny]), each checked against the
// schema. A file over max bytes is refused with a [*TooLargeError] before
// any of it is read.
func ReadFile(path string, max int64) ([]*Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	hint := int64(0)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if st.Size() > max {
			return nil, &TooLargeError{Name: path, Size: st.Size(), Max: max}
		}
		hint = st.Size()
	}
	return read(f, path, max, hint)
}

// Read reads the result documents of r as [ReadFile] does: at most max
// bytes, refusing with a [*TooLargeError] a stream that holds more. name
// names r in errors.
func Read(r io.Reader, name string, max int64) ([]*Document, error) {
	return read(r, name, max, 0)
}

// read reads at most max bytes of r, with room for hint bytes from the
// start, and decodes them.
func read(r io.Reader, name string, max, hint int64) ([]*Document, error) {
	if max <= 0 {
		return nil, errors.New("the limit on a result document must be a positive number of bytes")
	}
	var buf bytes.Buffer
	buf.Grow(int(min(hint, max)) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(r, max+1)); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	data := buf.Bytes()
	if int64(len(data)) > max {
		return nil, &TooLargeError{Name: name, Size: -1, Max: max}
	}
	return DecodeAny(data)
}
