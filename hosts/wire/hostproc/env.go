package hostproc

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// TokenEnv names the variable that marks every process of one host's tree:
// Start sets it to a random value per client, so that on Linux the host's
// descendants can be found in /proc/*/environ even after they left its
// process group (setsid) or were re-parented.
const TokenEnv = "CONFORM_HOST_TOKEN"

// CacheEnv names conform's cache directory. The harness passes it, with
// the value it has itself, to the hosts it trusts (see [Trusted]) so that
// a built-in host keeps what it caches (the reference host: its verified
// containment probe) across sessions, whose HOME is new each time. Any
// other host never gets it, not even when PassEnv names it: a host the
// harness does not trust has no business writing the harness's state.
const CacheEnv = "CONFORM_CACHE_DIR"

// ServeArgs are the arguments that make the harness's own executable
// serve one of its built-in hosts (`conform host serve NAME`); see
// [Trusted].
var ServeArgs = []string{"host", "serve"}

// Trusted reports whether the host command argv, whose executable resolved
// to path, is one the harness trusts with its own state: the harness's own
// executable (the same file) serving a built-in host, argv[1:] starting
// with ServeArgs. Every other command, the user's own host included, is
// untrusted.
func Trusted(path string, argv []string) bool {
	if len(argv) < 1+len(ServeArgs) || !slices.Equal(argv[1:1+len(ServeArgs)], ServeArgs) {
		return false
	}
	self, err := os.Executable()
	if err != nil {
		return false
	}
	a, err := os.Stat(path)
	if err != nil {
		return false
	}
	b, err := os.Stat(self)
	return err == nil && os.SameFile(a, b)
}

// DefaultEnv lists the variables a host inherits from the harness by
// default: PATH, LANG, every LC_* and TZ (and, on Windows, the few a
// process needs to start: SystemRoot, SystemDrive, ComSpec, PATHEXT,
// WINDIR). TERM is not passed: a host has no terminal. HOME and TMPDIR
// (USERPROFILE, TEMP and TMP on Windows) point inside the session, see
// [StartOptions].Home; CacheEnv goes to trusted hosts only (see CacheEnv);
// anything else must be asked for by name in [StartOptions].PassEnv.
func DefaultEnv() []string {
	names := []string{"PATH", "LANG", "LC_*", "TZ"}
	if runtime.GOOS == "windows" {
		names = append(names, "SystemRoot", "SystemDrive", "ComSpec", "PATHEXT", "WINDIR")
	}
	return names
}

// hostEnv builds the environment of a host process: the explicit Env when
// the caller gave one (without any CacheEnv in it), otherwise the
// allowlist, the session's home and temporary directory and the names in
// PassEnv; then, for a trusted host, the harness's CacheEnv, and the tree
// token.
func hostEnv(opts StartOptions, home, token string, trusted bool) []string {
	if opts.Env != nil {
		env := slices.DeleteFunc(slices.Clone(opts.Env), func(kv string) bool {
			name, _, _ := strings.Cut(kv, "=")
			return strings.EqualFold(name, CacheEnv)
		})
		return withCache(env, token, trusted)
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if envAllowed(name, opts.PassEnv) {
			env = append(env, kv)
		}
	}
	tmp := filepath.Join(home, "tmp")
	if runtime.GOOS == "windows" {
		env = append(env, "USERPROFILE="+home, "TEMP="+tmp, "TMP="+tmp)
	} else {
		env = append(env, "HOME="+home, "TMPDIR="+tmp)
	}
	return withCache(env, token, trusted)
}

// withCache ends env with the harness's CacheEnv, for a trusted host, and
// the tree token.
func withCache(env []string, token string, trusted bool) []string {
	if dir, ok := os.LookupEnv(CacheEnv); ok && trusted {
		env = append(env, CacheEnv+"="+dir)
	}
	return append(env, TokenEnv+"="+token)
}

func envAllowed(name string, pass []string) bool {
	if name == "" || name == TokenEnv || strings.EqualFold(name, CacheEnv) {
		return false
	}
	fold := runtime.GOOS == "windows"
	for _, n := range append(DefaultEnv(), pass...) {
		if n == "HOME" || n == "TMPDIR" {
			continue // always the session's own
		}
		if p, ok := strings.CutSuffix(n, "*"); ok {
			if strings.HasPrefix(name, p) || fold && strings.HasPrefix(strings.ToUpper(name), strings.ToUpper(p)) {
				return true
			}
		} else if name == n || fold && strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}
