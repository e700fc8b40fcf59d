package hostcmd

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Resolve returns argv with its relative paths made absolute against the
// current working directory: argv[0] when it names a path (it contains a
// path separator) rather than a name looked up in PATH, and the script
// argument of an interpreter command line (see [Script]) when it names an
// existing regular file. Other words are returned as given. argv itself is
// not modified.
func Resolve(argv []string) ([]string, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty host command")
	}
	out := slices.Clone(argv)
	if hasSeparator(out[0]) && !filepath.IsAbs(out[0]) {
		abs, err := filepath.Abs(out[0])
		if err != nil {
			return nil, err
		}
		out[0] = abs
	}
	if i := Script(out); i > 0 && !filepath.IsAbs(out[i]) {
		abs, err := filepath.Abs(out[i])
		if err != nil {
			return nil, err
		}
		out[i] = abs
	}
	return out, nil
}

// hasSeparator reports whether word names a path rather than a command
// looked up in PATH.
func hasSeparator(word string) bool {
	return strings.ContainsRune(word, '/') || (filepath.Separator != '/' && strings.ContainsRune(word, filepath.Separator))
}

// interpreters are the executables whose first non-option argument, when
// it names an existing file, is the program that is the host. A version
// suffix (python3.12) and a Windows .exe suffix are ignored.
var interpreters = []string{
	"bash", "bun", "csh", "dash", "deno", "elixir", "fish", "java", "julia", "ksh", "lua", "luajit",
	"mksh", "node", "nodejs", "perl", "php", "pwsh", "powershell", "pypy", "pypy3", "python", "python2",
	"python3", "Rscript", "ruby", "sh", "tclsh", "tcsh", "zsh",
}

// isInterpreter reports whether the executable exe is one of the known
// interpreters.
func isInterpreter(exe string) bool {
	base := filepath.Base(exe)
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".exe"), ".EXE")
	if slices.Contains(interpreters, base) {
		return true
	}
	// python3.12, ruby3.3, lua5.4: a name followed by a dotted version.
	if i := strings.IndexByte(base, '.'); i > 0 {
		name, ver := strings.TrimRight(base[:i], "0123456789"), base[i+1:]
		if ver != "" && strings.Trim(ver, "0123456789.") == "" {
			return slices.Contains(interpreters, name) || slices.Contains(interpreters, base[:i])
		}
	}
	return false
}

// Script returns the index in argv of the script an interpreter command
// line runs, or 0 when there is none: argv[0] must be a known interpreter
// (`env` in front of it, with its options and NAME=VALUE words, is looked
// through), and the script is the first following word that is not an
// option (it does not start with "-") and names an existing regular file.
// A word after "-c" or "-e" is code, not a file, so `sh -c '...'` and
// `node -e '...'` have no script.
func Script(argv []string) int {
	i := 0
	if len(argv) > 1 && filepath.Base(strings.TrimSuffix(argv[0], ".exe")) == "env" {
		i = 1
		for i < len(argv) && (strings.HasPrefix(argv[i], "-") || strings.Contains(argv[i], "=")) {
			i++
		}
		if i >= len(argv) {
			return 0
		}
	}
	if !isInterpreter(argv[i]) {
		return 0
	}
	for j := i + 1; j < len(argv); j++ {
		w := argv[j]
		if w == "-c" || w == "-e" || w == "--eval" || w == "-m" {
			return 0
		}
		if w == "--" {
			continue
		}
		if strings.HasPrefix(w, "-") {
			continue
		}
		if st, err := os.Stat(w); err == nil && st.Mode().IsRegular() {
			return j
		}
		// The first operand names the script; one that is no file means
		// the interpreter reads its program some other way.
		return 0
	}
	return 0
}
