//go:build unix

package command

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func verifiedResult(exe string) ProbeResult {
	return ProbeResult{
		Available: true, Backend: LinuxBubblewrap, Executable: &exe, Verified: true,
		DescendantChildSpawned: true, DescendantQuiescent: true, HardLinkWriteDenied: true, NetworkDenied: true,
		OutsideWriteDenied: true, PrivateTempWrite: true, SystemRead: true, ToolchainExecution: true, WorkspaceWrite: true,
	}
}

func testKey() probeCacheKey {
	return probeCacheKey{ProbeVersion: probeVersion, Executable: "/usr/bin/bwrap", SHA256: "aa", Kernel: "6.1.0", UID: os.Geteuid()}
}

func testCache(t *testing.T, now time.Time) probeCache {
	return probeCache{dir: filepath.Join(t.TempDir(), "cache"), now: func() time.Time { return now }}
}

func TestProbeCacheHit(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := testCache(t, now)
	k := testKey()
	if _, ok := c.get(k); ok {
		t.Fatal("an empty cache hit")
	}
	c.put(k, verifiedResult(k.Executable))
	r, ok := c.get(k)
	if !ok || !r.Verified || *r.Executable != k.Executable {
		t.Fatalf("get after put = %+v, %v; want the verified result", r, ok)
	}
	entries, _ := os.ReadDir(c.dir)
	if len(entries) != 1 {
		t.Fatalf("the cache holds %d files, want 1 (no temporary file left)", len(entries))
	}
	info, err := os.Stat(c.file(k))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("entry mode = %v, %v; want 0600", info, err)
	}
}

func TestProbeCacheMisses(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := testCache(t, now)
	k := testKey()
	c.put(k, verifiedResult(k.Executable))
	for name, change := range map[string]func(*probeCacheKey){
		"digest":  func(k *probeCacheKey) { k.SHA256 = "bb" },
		"path":    func(k *probeCacheKey) { k.Executable = "/opt/bwrap" },
		"kernel":  func(k *probeCacheKey) { k.Kernel = "6.2.0" },
		"uid":     func(k *probeCacheKey) { k.UID++ },
		"version": func(k *probeCacheKey) { k.ProbeVersion = "bwrap-probe-0" },
	} {
		other := k
		change(&other)
		if _, ok := c.get(other); ok {
			t.Errorf("a changed %s hit the cache", name)
		}
		// Even an entry stored under the other key's name is refused when
		// its own key differs.
		if err := os.Rename(c.file(k), c.file(other)); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.get(other); ok {
			t.Errorf("an entry for another %s was used", name)
		}
		if err := os.Rename(c.file(other), c.file(k)); err != nil {
			t.Fatal(err)
		}
	}
	late := c
	late.now = func() time.Time { return now.Add(probeCacheTTL + time.Minute) }
	if _, ok := late.get(k); ok {
		t.Error("an entry older than the TTL hit")
	}
	early := c
	early.now = func() time.Time { return now.Add(-time.Hour) }
	if _, ok := early.get(k); ok {
		t.Error("an entry from the future hit")
	}
}

func TestProbeCacheIgnoresBadEntries(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	k := testKey()
	t.Run("corrupt", func(t *testing.T) {
		c := testCache(t, now)
		c.put(k, verifiedResult(k.Executable))
		if err := os.WriteFile(c.file(k), []byte(`{"key": {`), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.get(k); ok {
			t.Fatal("a corrupt entry hit")
		}
	})
	t.Run("unverified", func(t *testing.T) {
		c := testCache(t, now)
		r := verifiedResult(k.Executable)
		r.Verified = false
		c.put(k, r)
		if _, err := os.Stat(c.file(k)); err == nil {
			t.Fatal("an unverified result was cached")
		}
		r.Verified, r.NetworkDenied = true, false // claims verified, an assertion fails
		c.put(k, r)
		if _, ok := c.get(k); ok {
			t.Fatal("an entry whose assertions do not hold hit")
		}
	})
	t.Run("writable by others", func(t *testing.T) {
		c := testCache(t, now)
		c.put(k, verifiedResult(k.Executable))
		if err := os.Chmod(c.file(k), 0o666); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.get(k); ok {
			t.Fatal("a world-writable entry hit")
		}
		if err := os.Chmod(c.file(k), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(c.dir, 0o777); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.get(k); ok {
			t.Fatal("an entry in a world-writable directory hit")
		}
	})
	t.Run("unwritable directory", func(t *testing.T) {
		parent := t.TempDir()
		blocker := filepath.Join(parent, "file")
		if err := os.WriteFile(blocker, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		c := probeCache{dir: filepath.Join(blocker, "cache"), now: func() time.Time { return now }}
		c.put(k, verifiedResult(k.Executable)) // must not panic or fail the probe
		if _, ok := c.get(k); ok {
			t.Fatal("a cache that cannot exist hit")
		}
		ro := probeCache{dir: filepath.Join(parent, "ro"), now: c.now}
		if err := os.Mkdir(ro.dir, 0o500); err != nil {
			t.Fatal(err)
		}
		ro.put(k, verifiedResult(k.Executable))
		if os.Geteuid() != 0 { // root writes anyway
			if _, ok := ro.get(k); ok {
				t.Fatal("a read-only cache directory was written")
			}
		}
	})
	t.Run("off", func(t *testing.T) {
		t.Setenv(ProbeCacheDirEnv, "off")
		if d := DefaultProbeCacheDir(); d != "" {
			t.Fatalf("DefaultProbeCacheDir() = %q with %s=off", d, ProbeCacheDirEnv)
		}
		if c := newProbeCache(ProberConfig{CacheDir: t.TempDir(), NoCache: true}); c.dir != "" {
			t.Fatal("NoCache kept a cache")
		}
	})
	t.Run("tests never default to the user cache", func(t *testing.T) {
		user, err := os.UserCacheDir()
		if err != nil {
			t.Skip(err)
		}
		if d := DefaultProbeCacheDir(); os.Getenv(ProbeCacheDirEnv) == "" && filepath.Dir(d) == user {
			t.Fatalf("DefaultProbeCacheDir() = %q, the user's cache, in a test binary", d)
		}
	})
}

func TestSweepScratch(t *testing.T) {
	tmp := t.TempDir()
	abandonedDir := filepath.Join(tmp, scratchPrefix+"1")
	if err := os.MkdirAll(filepath.Join(abandonedDir, "workspace"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(abandonedDir, scratchLock), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	live, err := newScratch(tmp)
	if err != nil {
		t.Fatal(err)
	}
	defer live.remove()
	oldLegacy := filepath.Join(tmp, "galaxy-bwrap-workspace-2")
	newLegacy := filepath.Join(tmp, "galaxy-bwrap-outside-3")
	for _, d := range []string{oldLegacy, newLegacy} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-time.Hour)
	if err := os.Chtimes(oldLegacy, long, long); err != nil {
		t.Fatal(err)
	}
	other, err := newScratch(tmp) // sweeps first
	if err != nil {
		t.Fatal(err)
	}
	for d, want := range map[string]bool{abandonedDir: false, oldLegacy: false, newLegacy: true, live.root: true, other.root: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
	if err := other.remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(other.root); err == nil {
		t.Error("remove left the scratch directory")
	}
}
