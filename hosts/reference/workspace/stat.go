package workspace

import "os"

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
