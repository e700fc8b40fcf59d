package hostcmd

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// inDir runs the test in a fresh directory as working directory.
func inDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	return dir
}

func write(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func TestResolveMakesRelativePathsAbsolute(t *testing.T) {
	dir := inDir(t)
	write(t, "host.py", "print()\n", 0o644)
	for _, tc := range []struct {
		argv []string
		want []string
	}{
		{[]string{"./my-host", "--stdio"}, []string{filepath.Join(dir, "my-host"), "--stdio"}},
		{[]string{"bin/host"}, []string{filepath.Join(dir, "bin/host")}},
		{[]string{"my-host"}, []string{"my-host"}}, // looked up in PATH
		{[]string{"/usr/bin/host"}, []string{"/usr/bin/host"}},
		{[]string{"python3", "-u", "host.py", "x"}, []string{"python3", "-u", filepath.Join(dir, "host.py"), "x"}},
		{[]string{"python3", "missing.py"}, []string{"python3", "missing.py"}},
		{[]string{"sh", "-c", "host.py"}, []string{"sh", "-c", "host.py"}},
	} {
		got, err := Resolve(tc.argv)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", tc.argv, err)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Resolve(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
	if _, err := Resolve(nil); err == nil {
		t.Error("Resolve(nil) succeeded")
	}
}

func TestScriptFindsTheInterpretersProgram(t *testing.T) {
	inDir(t)
	write(t, "host.mjs", "", 0o644)
	write(t, "conf.json", "", 0o644)
	if err := os.Mkdir("dir", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		argv []string
		want int
	}{
		{[]string{"node", "host.mjs"}, 1},
		{[]string{"/usr/local/bin/node", "--stdio-flag", "host.mjs"}, 2},
		{[]string{"python3.12", "host.mjs"}, 1},
		{[]string{"env", "-i", "A=b", "node", "host.mjs"}, 4},
		{[]string{"./my-host", "conf.json"}, 0}, // not an interpreter
		{[]string{"node", "-e", "host.mjs"}, 0},
		{[]string{"python3", "-m", "host"}, 0},
		{[]string{"node", "dir"}, 0},
		{[]string{"node", "nothing.mjs", "host.mjs"}, 0},
		{[]string{"nodejsx", "host.mjs"}, 0},
		{[]string{"env"}, 0},
	} {
		if got := Script(tc.argv); got != tc.want {
			t.Errorf("Script(%q) = %d, want %d", tc.argv, got, tc.want)
		}
	}
}

func TestCheckSaysWhyAHostCannotStart(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes and #! lines are Unix facts")
	}
	inDir(t)
	write(t, "plain.sh", "#!/bin/sh\nexit 0\n", 0o644)
	write(t, "noshebang", "echo hi\n", 0o755)
	write(t, "badinterp", "#!/no/such/interpreter\n", 0o755)
	write(t, "good", "#!/bin/sh\nexit 0\n", 0o755)
	if err := os.Mkdir("adir", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, want string
	}{
		{"./plain.sh", "is not executable; make it executable (chmod +x ./plain.sh)"},
		{"./adir", "is a directory"},
		{"./missing", "no such file"},
		{"no-such-command-anywhere", "not found in PATH"},
		{"./noshebang", "neither a binary nor a script starting with a #! line"},
		{"./badinterp", "names the interpreter /no/such/interpreter, which does not exist"},
	} {
		err := Check([]string{tc.name})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%q) = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	if err := Check([]string{"./good"}); err != nil {
		t.Errorf("Check(./good) = %v", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := Check([]string{exe}); err != nil {
		t.Errorf("Check(test binary) = %v", err)
	}
}

func TestIdentifyHashesTheScriptOfAnInterpreter(t *testing.T) {
	dir := inDir(t)
	write(t, "host.sh", "echo host\n", 0o644)
	display := []string{"sh", "host.sh"}
	argv, err := Resolve(display)
	if err != nil {
		t.Fatal(err)
	}
	id := Identify(display, argv)
	if id.Executable == "" || !strings.HasPrefix(id.ExecutableSHA256, "sha256:") {
		t.Errorf("executable not hashed: %+v", id)
	}
	if id.Program != "host.sh" {
		t.Errorf("Program = %q, want the script as written, host.sh", id.Program)
	}
	want, _ := HashFile(filepath.Join(dir, "host.sh"))
	if id.ProgramSHA256 != want || want == id.ExecutableSHA256 {
		t.Errorf("ProgramSHA256 = %q, want %q (the script, not the shell)", id.ProgramSHA256, want)
	}
	if id := Identify([]string{"sh", "-c", "true"}, []string{"sh", "-c", "true"}); id.Program != "" || id.ProgramSHA256 != "" {
		t.Errorf("sh -c has no program file, got %+v", id)
	}
}

func TestHashFileStreams(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	const size = 256 << 20
	if err := f.Truncate(size); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	sum, err := HashFile(path)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	// SHA-256 of 256 MiB of zero bytes.
	if sum != "sha256:a6d72ac7690f53be6ae46ba88506bd97302a093f7108472bd9efc3cefda06484" {
		t.Errorf("HashFile = %s", sum)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("hashing a %d MiB file allocated %d MiB; it must stream", size>>20, alloc>>20)
	}
}
