package oracle

import (
	"errors"
	"io/fs"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/internal/wsfs"
	"github.com/galaxy-stack/conform/matrix/fixture"
)

// DefaultMaxReadBytes is the cap of one expected-file read unless the run
// says otherwise: 16 MiB, the size of the largest fixture, so any content
// a fixture can expect fits.
const DefaultMaxReadBytes int64 = 16 << 20

// MaxReadBytes is the cap ReadFiles applies when its caller gives none
// (conform run and certify --max-read-size).
var MaxReadBytes = DefaultMaxReadBytes

// ReadFiles reads the final state of every path fx's expected.files names
// from root, the workspace after the last execution, for Observed.Files.
// A file larger than max bytes (MaxReadBytes when max <= 0) is not read:
// it is LIMIT_EXCEEDED.
//
// Symbolic links are followed only as far as each one's target string
// stays inside the workspace (wsfs.Root.Resolve): a link that leaves it is
// reported as a link, with its target string in File.Target and
// PERMISSION_DENIED, and nothing behind it is read.
//
// A path with no entry is KindMissing with NOT_FOUND; a directory or
// special entry, or a file that is not valid UTF-8, is INVALID_INPUT
// (a text read needs a regular UTF-8 file, LAB §10.4).
func ReadFiles(root *wsfs.Root, fx *fixture.Fixture, max int64) map[string]File {
	out := map[string]File{}
	if fx.Expected == nil {
		return out
	}
	if max <= 0 {
		max = MaxReadBytes
	}
	for _, w := range fx.Expected.Files {
		if _, done := out[w.Path]; !done {
			out[w.Path] = readFile(root, w.Path, max)
		}
	}
	return out
}

func readFile(root *wsfs.Root, p string, max int64) File {
	info, err := root.Lstat(p)
	linkedParent := errors.Is(err, wsfs.ErrLink)
	switch {
	case err == nil, linkedParent:
	case errors.Is(err, fs.ErrNotExist):
		return File{Kind: effects.KindMissing, ErrorCode: "NOT_FOUND"}
	default:
		return File{Kind: effects.KindOther, ErrorCode: code(err)}
	}
	if !linkedParent && info.Mode()&fs.ModeSymlink == 0 {
		return read(root, p, kindOf(info.Mode()), max)
	}
	// A link, at p or above it: follow it while it stays inside.
	f := File{Kind: effects.KindSymlink}
	real, err := root.Resolve(p)
	var esc *wsfs.EscapeError
	if errors.As(err, &esc) {
		f.Target, f.ErrorCode = esc.Target, "PERMISSION_DENIED"
		return f
	}
	if err != nil {
		f.ErrorCode = code(err)
		return f
	}
	st, err := root.Lstat(real)
	if linkedParent {
		// The entry itself is what a parent link leads to.
		if errors.Is(err, fs.ErrNotExist) {
			return File{Kind: effects.KindMissing, ErrorCode: "NOT_FOUND"}
		}
		if err == nil {
			f.Kind = kindOf(st.Mode())
		}
	}
	if err != nil {
		f.ErrorCode = code(err)
		return f
	}
	if !st.Mode().IsRegular() {
		f.ErrorCode = "INVALID_INPUT"
		return f
	}
	got := read(root, real, effects.KindFile, max)
	got.Kind = f.Kind
	return got
}

// read reads the entry at the link-free path p, of the given kind.
func read(root *wsfs.Root, p, kind string, max int64) File {
	f := File{Kind: kind}
	if kind != effects.KindFile {
		f.ErrorCode = "INVALID_INPUT"
		return f
	}
	data, err := root.ReadFile(p, max)
	switch {
	case err != nil:
		f.ErrorCode = code(err)
	case !utf8.Valid(data):
		f.ErrorCode = "INVALID_INPUT"
	default:
		f.Content = string(data)
	}
	return f
}

func kindOf(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return effects.KindFile
	case m.IsDir():
		return effects.KindDirectory
	case m&fs.ModeSymlink != 0:
		return effects.KindSymlink
	default:
		return effects.KindOther
	}
}

// code maps a read error to a workspace port error code (LAB §10.2).
func code(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "NOT_FOUND"
	case errors.Is(err, wsfs.ErrTooLarge):
		return "LIMIT_EXCEEDED"
	case errors.Is(err, fs.ErrPermission), errors.Is(err, wsfs.ErrGit), errors.Is(err, wsfs.ErrEscape), errors.Is(err, wsfs.ErrPath):
		return "PERMISSION_DENIED"
	default:
		return "IO_ERROR"
	}
}
