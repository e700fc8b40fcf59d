package hostcmd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Check returns nil when argv[0] can be started, and otherwise an error
// that says why and what to do: the executable is not found, is a
// directory, is not executable, is neither a binary nor a #! script, or
// its #! line names an interpreter that does not exist. It runs nothing.
func Check(argv []string) error {
	if len(argv) == 0 {
		return errors.New("empty host command")
	}
	name := argv[0]
	path, err := exec.LookPath(name)
	if err != nil {
		st, serr := os.Stat(name)
		switch {
		case !hasSeparator(name) || serr != nil:
			if hasSeparator(name) {
				return fmt.Errorf("%s: no such file (a relative path is taken from the directory conform runs in)", name)
			}
			return fmt.Errorf("%s: not found in PATH; give its path, for example ./%s", name, name)
		case st.IsDir():
			return fmt.Errorf("%s is a directory, not a program; give the host executable inside it", name)
		default:
			return fmt.Errorf("%s is not executable; make it executable (chmod +x %s) or start it with its interpreter, for example 'sh %s'", name, name, name)
		}
	}
	if runtime.GOOS == "windows" {
		return nil
	}
	return checkFormat(path)
}

// checkFormat reads the start of the executable at path: the system starts
// a binary or a #! script whose interpreter exists, and nothing else.
func checkFormat(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%s cannot be read: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, 4)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if isBinary(head) {
		return nil
	}
	if !bytes.HasPrefix(head, []byte("#!")) {
		return fmt.Errorf("%s is not a program the system can start: it is neither a binary nor a script starting with a #! line; add one (for example #!/bin/sh) or start it with its interpreter, for example 'sh %s'", path, path)
	}
	if _, err := f.Seek(2, io.SeekStart); err != nil {
		return err
	}
	line, _ := bufio.NewReader(io.LimitReader(f, 512)).ReadString('\n')
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return fmt.Errorf("%s has an empty #! line; name its interpreter, for example #!/bin/sh", path)
	}
	interp := fields[0]
	if !filepath.IsAbs(interp) {
		return nil // the kernel resolves it against the host's working directory; leave it to the start
	}
	if st, err := os.Stat(interp); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return fmt.Errorf("%s: its #! line names the interpreter %s, which does not exist or is not executable; install it or fix the #! line", path, interp)
	}
	return nil
}

// isBinary reports whether head starts like an executable binary: ELF,
// Mach-O (32 or 64 bit, either byte order, or universal), or PE.
func isBinary(head []byte) bool {
	magics := [][]byte{
		{0x7f, 'E', 'L', 'F'},
		{0xfe, 0xed, 0xfa, 0xce}, {0xce, 0xfa, 0xed, 0xfe},
		{0xfe, 0xed, 0xfa, 0xcf}, {0xcf, 0xfa, 0xed, 0xfe},
		{0xca, 0xfe, 0xba, 0xbe},
		{'M', 'Z'},
	}
	for _, m := range magics {
		if bytes.HasPrefix(head, m) {
			return true
		}
	}
	return false
}
