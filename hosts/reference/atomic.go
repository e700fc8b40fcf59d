package reference

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"

	"github.com/galaxy-stack/conform/internal/atomicfile"
)

// sha256Text is the lowercase hex SHA-256 of s (LAB §16).
func sha256Text(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// writeAtomic replaces path with data durably, making its directory
// (0700): a new file is 0600, and package atomicfile writes it (a
// temporary file beside path, synced, renamed over it, the directory
// synced), so that a crash leaves either the old or the new file, never a
// torn one. A path that is not a regular file is refused, never replaced.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o600)
}

// syncDir makes a directory's entries durable. Windows cannot sync a
// directory handle; there the rename itself is relied upon.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
