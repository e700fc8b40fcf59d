package hostproc

import (
	"slices"
	"testing"
)

// TestExplicitEnvCacheForTrustedHostsOnly: a host started with an explicit
// environment (the replay check's second run) gets conform's cache
// directory when it is one of conform's own hosts, as every session of it
// does, and never otherwise, not even when the environment names it.
func TestExplicitEnvCacheForTrustedHostsOnly(t *testing.T) {
	t.Setenv(CacheEnv, "/cache/of/conform")
	want := CacheEnv + "=/cache/of/conform"
	trusted := hostEnv(StartOptions{Env: []string{"TZ=Asia/Kathmandu"}}, "", "tok", true)
	if !slices.Contains(trusted, want) {
		t.Errorf("a trusted host's explicit environment lacks %s: %q", want, trusted)
	}
	untrusted := hostEnv(StartOptions{Env: []string{"TZ=Asia/Kathmandu", want}}, "", "tok", false)
	if slices.Contains(untrusted, want) {
		t.Errorf("an untrusted host's explicit environment holds %s, though the caller named it", want)
	}
	if Trusted("/bin/sh", []string{"/bin/sh", "host", "serve", "reference"}) {
		t.Error("/bin/sh serving \"reference\" is taken for conform's own host")
	}
}
