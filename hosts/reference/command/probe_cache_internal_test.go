//go:build unix

package command

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	if len(entries) != 2 {
		t.Fatalf("the cache holds %d files, want 2, the key and the entry (no temporary file left)", len(entries))
	}
	for _, name := range []string{c.file(k), filepath.Join(c.dir, probeKeyFile)} {
		info, err := os.Lstat(name)
		if err != nil || info.Mode().Perm() != 0o600 {
			t.Fatalf("%s mode = %v, %v; want 0600", filepath.Base(name), info, err)
		}
	}
	if info, err := os.Lstat(c.dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("cache directory mode = %v, %v; want 0700", info, err)
	}
}

// plantForged writes, in c's directory, the entry a host that was told
// where the cache is could write: a verified result for k in the format
// of an entry, 0600, without a MAC made with the cache's key.
func plantForged(t *testing.T, c probeCache, k probeCacheKey, mac string) {
	t.Helper()
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	entry, err := json.Marshal(probeCacheEntry{Key: k, Written: c.now().UTC(), Result: verifiedResult(k.Executable)})
	if err != nil {
		t.Fatal(err)
	}
	data := entry // the format of an entry before entries carried a MAC
	if mac != "" {
		data, _ = json.Marshal(probeCacheFile{Entry: entry, MAC: mac})
	}
	if err := os.WriteFile(c.file(k), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestProbeCacheTrustsOnlyEntriesItWrote(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	k := testKey()
	// cached puts a verified entry for k as the cache itself writes it.
	cached := func(c probeCache) { c.put(k, verifiedResult(k.Executable)) }
	for _, tc := range []struct {
		name string
		// tamper leaves c with an entry for k that it must not trust.
		tamper func(t *testing.T, c probeCache) error
		hit    string
	}{
		{"plain entry", func(t *testing.T, c probeCache) error {
			plantForged(t, c, k, "")
			return nil
		}, "an entry without a MAC hit"},
		{"MAC under another key", func(t *testing.T, c probeCache) error {
			c.put(verifiedKeyless(k), verifiedResult(k.Executable)) // the cache has its key
			other := make([]byte, probeKeySize)
			entry, _ := json.Marshal(probeCacheEntry{Key: k, Written: now, Result: verifiedResult(k.Executable)})
			plantForged(t, c, k, hex.EncodeToString(macOf(other, entry)))
			return nil
		}, "an entry whose MAC is not made with the cache's key hit"},
		{"key replaced", func(t *testing.T, c probeCache) error {
			cached(c)
			return os.WriteFile(filepath.Join(c.dir, probeKeyFile), make([]byte, probeKeySize), 0o600)
		}, "an entry hit under a key that did not make its MAC"},
		{"key readable by others", func(t *testing.T, c probeCache) error {
			cached(c)
			return os.Chmod(filepath.Join(c.dir, probeKeyFile), 0o644)
		}, "an entry hit with a key file others can read"},
		{"key is a link", func(t *testing.T, c probeCache) error {
			cached(c)
			key := filepath.Join(c.dir, probeKeyFile)
			moved := filepath.Join(t.TempDir(), "key")
			if err := os.Rename(key, moved); err != nil {
				return err
			}
			return os.Symlink(moved, key)
		}, "an entry hit with a key file that is a symbolic link"},
		{"directory others can enter", func(t *testing.T, c probeCache) error {
			cached(c)
			return os.Chmod(c.dir, 0o755)
		}, "an entry hit in a cache directory others can read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testCache(t, now)
			if err := tc.tamper(t, c); err != nil {
				t.Fatal(err)
			}
			if _, ok := c.get(k); ok {
				t.Fatal(tc.hit)
			}
		})
	}
}

// verifiedKeyless is k for another binary: an entry whose put creates the
// cache's key without caching anything for k.
func verifiedKeyless(k probeCacheKey) probeCacheKey {
	k.SHA256 = "other"
	return k
}

// A host that was handed the cache directory plants a verified result for
// a bwrap that cannot work; the prober must probe that bwrap and find it
// unverified rather than trust the entry.
func TestProberReprobesOverAForgedEntry(t *testing.T) {
	bin := t.TempDir()
	bwrap := filepath.Join(bin, "bwrap")
	if err := os.WriteFile(bwrap, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	k, ok := keyFor(bwrap)
	if !ok {
		t.Skip("no probe cache key on this system (no /proc/sys/kernel/osrelease)")
	}
	cfg := ProberConfig{HelperArgs: []string{"never-run"}, Path: bin, CacheDir: filepath.Join(t.TempDir(), "cache"), TempDir: t.TempDir()}
	c := newProbeCache(cfg)
	for _, mac := range []string{"", hex.EncodeToString(make([]byte, sha256.Size))} {
		plantForged(t, c, k, mac)
		if r := NewProber(cfg).Probe(); r.Verified {
			t.Fatalf("the prober trusted a planted entry (mac %q): %+v", mac, r)
		}
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
