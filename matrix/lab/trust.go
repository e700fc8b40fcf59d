package lab

import (
	"bytes"
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path"
	"sync"

	"github.com/galaxy-stack/conform/fixtures"
)

// embeddedIndex maps the SHA-256 of each scenario file built into conform
// (fixtures.Matrix: its .json and .txtar files) to its path there.
type embeddedIndex struct {
	byHash  map[[sha256.Size]byte]string
	maxSize int64
}

var embedded = sync.OnceValue(func() embeddedIndex {
	ix := embeddedIndex{byHash: map[[sha256.Size]byte]string{}}
	lib := fixtures.Matrix()
	err := fs.WalkDir(lib, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (path.Ext(p) != ".json" && path.Ext(p) != ".txtar") {
			return err
		}
		data, err := fs.ReadFile(lib, p)
		if err != nil {
			return err
		}
		ix.byHash[sha256.Sum256(data)] = p
		ix.maxSize = max(ix.maxSize, int64(len(data)))
		return nil
	})
	if err != nil {
		panic(err) // the embedded files are always readable
	}
	return ix
})

// Embedded returns the copy built into conform of the scenario file whose
// bytes are data, and its path under fixtures.MatrixDir; ok is false when
// no scenario built into conform has exactly these bytes. Trust follows
// the content, not the path: a checkout's fixtures/matrix/F.json is
// conform's own only while it is byte for byte the copy conform was built
// with.
func Embedded(data []byte) (own []byte, rel string, ok bool) {
	ix := embedded()
	if int64(len(data)) > ix.maxSize {
		return nil, "", false
	}
	rel, ok = ix.byHash[sha256.Sum256(data)]
	if !ok {
		return nil, "", false
	}
	own, err := fs.ReadFile(fixtures.Matrix(), rel)
	if err != nil || !bytes.Equal(own, data) {
		return nil, "", false
	}
	return own, rel, true
}

// EmbeddedFile is Embedded for the contents of the file name, which it
// reads only as far as the largest embedded scenario (and one byte more):
// a larger file, or one that cannot be read, is not conform's own. A
// caller that trusts the file must run the copy this returns, never what
// it reads from name again, which may have changed since.
func EmbeddedFile(name string) (own []byte, rel string, ok bool) {
	// Not blocking on open: a FIFO put in the file's place is refused
	// below, not waited on.
	f, err := os.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, "", false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, "", false
	}
	data, err := io.ReadAll(io.LimitReader(f, embedded().maxSize+1))
	if err != nil {
		return nil, "", false
	}
	return Embedded(data)
}
