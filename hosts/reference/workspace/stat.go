package workspace

import (
	"errors"
	"io"
	"os"
)

// fileStat is what reading a file needs to know of it before opening it.
type fileStat struct {
	regular bool
	size    int64
}

// statFast is statWithoutLinks; tests replace it to compare the general
// path with the fast one.
var statFast = statWithoutLinks

// statExisting resolves rel as resolveExisting does and stats the real
// path without following a final symbolic link, as os.Lstat does. When no
// component of the path is a symbolic link (the common case), the real
// path is the lexical one, and one openat2 and one fstat replace the
// lstat of every component of the path and the lstat of the result;
// otherwise, or when the fast path cannot answer, the general path gives
// the answer and the errors.
func (r *Root) statExisting(rel string) (real string, st fileStat, err error) {
	if abs, _, err := r.lexical(rel); err == nil && r.inside(abs) {
		if st, ok := statFast(abs); ok {
			return abs, st, nil
		}
	}
	real, _, err = r.resolveExisting(rel)
	if err != nil {
		return "", fileStat{}, err
	}
	fi, err := os.Lstat(real)
	if err != nil {
		return "", fileStat{}, ioError(rel, err)
	}
	return real, fileStat{regular: fi.Mode().IsRegular(), size: fi.Size()}, nil
}

// readSized reads the whole file at path as os.ReadFile does, to its end
// whatever its size by then, but takes the expected size from the stat
// already made instead of asking for it again.
func readSized(path string, size int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, 0, max(size+1, 512))
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err != nil {
			if errors.Is(err, io.EOF) {
				return data, nil
			}
			return nil, err
		}
	}
}
