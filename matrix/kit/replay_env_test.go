package kit

import (
	"slices"
	"testing"

	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
)

// TestVariedHostEnvCacheForTrustedHostsOnly: the second run's host gets
// conform's cache directory when it is one of conform's own hosts, as every
// session of it does, and never otherwise.
func TestVariedHostEnvCacheForTrustedHostsOnly(t *testing.T) {
	t.Setenv(hostproc.CacheEnv, "/cache/of/conform")
	want := hostproc.CacheEnv + "=/cache/of/conform"
	trusted, err := variedHostEnv(t.TempDir(), nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(trusted, want) {
		t.Errorf("a trusted host's varied environment lacks %s: %q", want, trusted)
	}
	untrusted, err := variedHostEnv(t.TempDir(), []string{hostproc.CacheEnv}, false)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(untrusted, want) {
		t.Errorf("an untrusted host's varied environment holds %s, though it names it in --host-env", want)
	}
	if trustedHost([]string{"/bin/sh", "host", "serve", "reference"}) {
		t.Error("/bin/sh serving \"reference\" is taken for conform's own host")
	}
}
