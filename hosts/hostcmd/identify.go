package hostcmd

import (
	"os/exec"

	"github.com/galaxy-stack/conform/internal/filehash"
)

// Identity says what a host command line runs.
type Identity struct {
	// Executable is argv[0] as found in PATH or on disk, "" when it cannot
	// be found; ExecutableSHA256 is the SHA-256 of its content,
	// "sha256:<hex>", "" when it cannot be read.
	Executable       string
	ExecutableSHA256 string
	// Program is the script of an interpreter command line as written in
	// the command (see [Script]), "" for any other command;
	// ProgramSHA256 is the SHA-256 of its content.
	Program       string
	ProgramSHA256 string
}

// Identify hashes the executable of argv and, for an interpreter command
// line, the script that is the host. display is the command line as the
// user wrote it (before [Resolve]); Program is taken from it so that a
// report holds no path that depends on where conform ran. Files are
// streamed through the hash, never read whole into memory.
func Identify(display, argv []string) Identity {
	var id Identity
	if len(argv) == 0 {
		return id
	}
	if p, err := exec.LookPath(argv[0]); err == nil {
		id.Executable = p
		id.ExecutableSHA256, _ = HashFile(p)
	}
	if i := Script(argv); i > 0 {
		id.Program = argv[i]
		if i < len(display) {
			id.Program = display[i]
		}
		id.ProgramSHA256, _ = HashFile(argv[i])
	}
	return id
}

// HashFile returns the SHA-256 of the file at path as "sha256:<hex>",
// reading it in small blocks.
func HashFile(path string) (string, error) {
	sum, err := filehash.SHA256(path)
	if err != nil {
		return "", err
	}
	return "sha256:" + sum, nil
}
