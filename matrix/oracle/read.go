package oracle

import (
	"errors"
	"io/fs"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// ReadFiles reads the final state of every path fx's expected.files names
// from fsys, the workspace after the last execution, for Observed.Files.
// fsys should keep reads inside the workspace, as (*os.Root).FS does: a
// symbolic link is followed only where fsys follows it, and one that
// leaves the workspace reads as PERMISSION_DENIED or IO_ERROR.
//
// A path with no entry is KindMissing with NOT_FOUND; a directory or
// special entry, or a file that is not valid UTF-8, is INVALID_INPUT
// (a text read needs a regular UTF-8 file, LAB §10.4).
func ReadFiles(fsys fs.FS, fx *fixture.Fixture) map[string]File {
	out := map[string]File{}
	if fx.Expected == nil {
		return out
	}
	for _, w := range fx.Expected.Files {
		if _, done := out[w.Path]; !done {
			out[w.Path] = readFile(fsys, w.Path)
		}
	}
	return out
}

func readFile(fsys fs.FS, p string) File {
	info, err := fs.Lstat(fsys, p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{Kind: snapshot.KindMissing, ErrorCode: "NOT_FOUND"}
		}
		return File{Kind: snapshot.KindOther, ErrorCode: code(err)}
	}
	f := File{Kind: kindOf(info.Mode())}
	if f.Kind == snapshot.KindSymlink {
		target, err := fs.Stat(fsys, p)
		if err != nil {
			f.ErrorCode = code(err)
			return f
		}
		if !target.Mode().IsRegular() {
			f.ErrorCode = "INVALID_INPUT"
			return f
		}
	} else if f.Kind != snapshot.KindFile {
		f.ErrorCode = "INVALID_INPUT"
		return f
	}
	data, err := fs.ReadFile(fsys, p)
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
		return snapshot.KindFile
	case m.IsDir():
		return snapshot.KindDirectory
	case m&fs.ModeSymlink != 0:
		return snapshot.KindSymlink
	default:
		return snapshot.KindOther
	}
}

// code maps a read error to a workspace port error code (LAB §10.2).
func code(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "NOT_FOUND"
	case errors.Is(err, fs.ErrPermission):
		return "PERMISSION_DENIED"
	default:
		return "IO_ERROR"
	}
}
