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

// CacheEnv names conform's cache directory. The harness passes it to every
// host so that a host keeps what it caches (the reference host: its
// verified containment probe) across sessions, whose HOME is new each time.
const CacheEnv = "CONFORM_CACHE_DIR"

// DefaultEnv lists the variables a host inherits from the harness by
// default: PATH, LANG, every LC_*, TZ and CacheEnv (and, on Windows, the few a
// process needs to start: SystemRoot, SystemDrive, ComSpec, PATHEXT,
// WINDIR). TERM is not passed: a host has no terminal. HOME and TMPDIR
// (USERPROFILE, TEMP and TMP on Windows) point inside the session, see
// [StartOptions].Home; anything else must be asked for by name in
// [StartOptions].PassEnv.
func DefaultEnv() []string {
	names := []string{"PATH", "LANG", "LC_*", "TZ", CacheEnv}
	if runtime.GOOS == "windows" {
		names = append(names, "SystemRoot", "SystemDrive", "ComSpec", "PATHEXT", "WINDIR")
	}
	return names
}

// hostEnv builds the environment of a host process: the explicit Env when
// the caller gave one, otherwise the allowlist, the session's home and
// temporary directory and the names in PassEnv. Both end with the tree
// token.
func hostEnv(opts StartOptions, home, token string) []string {
	if opts.Env != nil {
		return append(slices.Clone(opts.Env), TokenEnv+"="+token)
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
	return append(env, TokenEnv+"="+token)
}

func envAllowed(name string, pass []string) bool {
	if name == "" || name == TokenEnv {
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
