package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
)

func TestCommandResolvesARelativeHostAgainstTheCurrentDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	argv, err := Command("./my-host --stdio")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "my-host"); argv[0] != want || argv[1] != "--stdio" {
		t.Errorf("Command(./my-host --stdio) = %q, want [%s --stdio]", argv, want)
	}
	words, err := Words("./my-host --stdio")
	if err != nil || words[0] != "./my-host" {
		t.Errorf("Words keeps the command as written, got %q, %v", words, err)
	}
}

// The harness passes hostproc.CacheEnv to every host; the reference host reads
// its probe cache directory from command.ProbeCacheDirEnv. They must name
// the same variable, or the cache stops outliving a session.
func TestHostsAndHarnessNameTheSameCacheVariable(t *testing.T) {
	if hostproc.CacheEnv != command.ProbeCacheDirEnv {
		t.Errorf("hostproc.CacheEnv = %q, command.ProbeCacheDirEnv = %q", hostproc.CacheEnv, command.ProbeCacheDirEnv)
	}
}

// Only conform's own built-in hosts are trusted with its cache: a host
// command of the user's, even one that runs a copy of conform's binary,
// is not.
func TestOnlyBuiltinHostsAreTrusted(t *testing.T) {
	for _, name := range Names() {
		argv, err := Command(name)
		if err != nil {
			t.Fatal(err)
		}
		if !hostproc.Trusted(argv[0], argv) {
			t.Errorf("built-in host %q (%q) is not trusted", name, argv)
		}
	}
	exe := os.Args[0]
	for _, argv := range [][]string{
		{"/bin/sh", "host", "serve", "reference"},
		{exe, "zoo", "env"},
		{exe, "host"},
		{exe},
	} {
		if hostproc.Trusted(argv[0], argv) {
			t.Errorf("host command %q is trusted", argv)
		}
	}
}

// A test binary's cache is its own unless the environment names one: tests
// never read or write the user's cache.
func TestMaybeServeTestKeepsTestsOutOfTheUserCache(t *testing.T) {
	t.Setenv(hostproc.CacheEnv, "")
	os.Unsetenv(hostproc.CacheEnv)
	MaybeServeTest()
	dir := os.Getenv(hostproc.CacheEnv)
	if filepath.Dir(dir) != filepath.Clean(os.TempDir()) {
		t.Errorf("MaybeServeTest set %s=%q, want a directory in %s", hostproc.CacheEnv, dir, os.TempDir())
	}
	if user, err := os.UserCacheDir(); err == nil && strings.HasPrefix(dir, user) {
		t.Errorf("MaybeServeTest chose the user's cache %q", dir)
	}
	t.Setenv(hostproc.CacheEnv, "/elsewhere")
	MaybeServeTest()
	if got := os.Getenv(hostproc.CacheEnv); got != "/elsewhere" {
		t.Errorf("MaybeServeTest replaced the %s the environment names with %q", hostproc.CacheEnv, got)
	}
}
