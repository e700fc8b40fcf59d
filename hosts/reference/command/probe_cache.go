package command

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The probe cache keeps a verified bubblewrap probe result on disk, so that
// a host started again on the same machine answers initialize without the
// probe's 0.7 s of observation.
//
// An entry is keyed by the bwrap executable's path and SHA-256 digest, the
// kernel release, the effective uid and [probeVersion]; an entry whose key
// differs in anything is never used, so a changed or different binary, a
// new kernel or another user probes again. An entry is also not used after
// [probeCacheTTL]: what the key cannot see (a sysctl that forbids user
// namespaces, a new seccomp or AppArmor policy) is re-probed at least that
// often. Until then a hit is not re-checked by running the sandbox: a
// backend that stopped working makes contained commands fail, never run
// uncontained, so a stale hit costs availability, not containment.
//
// Only verified results are cached. An unverified result is often
// transient (a probe that timed out on a loaded machine) and caching it
// would keep a host unverified long after; a machine with no bwrap on the
// path does not probe at all, so it has nothing to save.
//
// The cache directory, and each entry, must belong to the effective user
// and be writable by nobody else, or the cache is not used: another user
// must not be able to plant a verified result. Entries are written to a
// temporary file and renamed into place; an entry that cannot be read or
// decoded, or whose result is not verified, is ignored and the probe runs.
// A directory that cannot be created or written means no cache.
const (
	// ProbeCacheDirEnv names the environment variable that sets the probe
	// cache directory; the value "off" turns the cache off.
	ProbeCacheDirEnv = "CONFORM_CACHE_DIR"
	// probeVersion changes whenever the probe or its helper changes what
	// they check, so that no result of an older probe is reused.
	probeVersion = "bwrap-probe-2"
	// probeCacheTTL is how long a cached result is used.
	probeCacheTTL = 24 * time.Hour
)

// DefaultProbeCacheDir returns the probe cache directory a [ProberConfig]
// with an empty CacheDir uses: $CONFORM_CACHE_DIR when it is set ("" when
// it is "off"); in a test binary, a directory under os.TempDir(), so that
// tests never write into the user's cache; otherwise
// os.UserCacheDir()/conform, or "" when there is none.
func DefaultProbeCacheDir() string {
	if v, ok := os.LookupEnv(ProbeCacheDirEnv); ok {
		if v == "off" {
			return ""
		}
		return v
	}
	if testing.Testing() {
		return filepath.Join(os.TempDir(), fmt.Sprintf("conform-test-cache-%d", os.Geteuid()))
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "conform")
}

// probeCacheKey identifies what a cached probe result holds for.
type probeCacheKey struct {
	ProbeVersion string `json:"probeVersion"`
	Executable   string `json:"executable"`
	SHA256       string `json:"sha256"`
	Kernel       string `json:"kernel"`
	UID          int    `json:"uid"`
}

// probeCacheEntry is one cache file.
type probeCacheEntry struct {
	Key     probeCacheKey `json:"key"`
	Written time.Time     `json:"written"`
	Result  ProbeResult   `json:"result"`
}

// A probeCache is the cache of one Prober; the zero value is no cache.
type probeCache struct {
	dir string
	now func() time.Time
}

// newProbeCache returns the cache cfg asks for.
func newProbeCache(cfg ProberConfig) probeCache {
	if cfg.NoCache {
		return probeCache{}
	}
	dir := cfg.CacheDir
	if dir == "" {
		dir = DefaultProbeCacheDir()
	}
	now := cfg.now
	if now == nil {
		now = time.Now
	}
	return probeCache{dir: dir, now: now}
}

// keyFor returns the key of bwrap's probe result, or false when it cannot
// be computed (no cache then).
func keyFor(bwrap string) (probeCacheKey, bool) {
	kernel, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return probeCacheKey{}, false
	}
	f, err := os.Open(bwrap)
	if err != nil {
		return probeCacheKey{}, false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return probeCacheKey{}, false
	}
	return probeCacheKey{
		ProbeVersion: probeVersion,
		Executable:   bwrap,
		SHA256:       hex.EncodeToString(h.Sum(nil)),
		Kernel:       strings.TrimSpace(string(kernel)),
		UID:          os.Geteuid(),
	}, true
}

// file returns the path of key's entry.
func (c probeCache) file(key probeCacheKey) string {
	b, _ := json.Marshal(key)
	sum := sha256.Sum256(b)
	return filepath.Join(c.dir, "bwrap-probe-"+hex.EncodeToString(sum[:8])+".json")
}

// get returns the verified result cached for key, if there is a usable one.
func (c probeCache) get(key probeCacheKey) (ProbeResult, bool) {
	if c.dir == "" {
		return ProbeResult{}, false
	}
	if info, err := os.Lstat(c.dir); err != nil || !info.IsDir() || !privateToMe(info) {
		return ProbeResult{}, false
	}
	name := c.file(key)
	info, err := os.Lstat(name)
	if err != nil || !info.Mode().IsRegular() || !privateToMe(info) || info.Size() > 1<<16 {
		return ProbeResult{}, false
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return ProbeResult{}, false
	}
	var e probeCacheEntry
	if err := json.Unmarshal(data, &e); err != nil || e.Key != key {
		return ProbeResult{}, false
	}
	age := c.now().Sub(e.Written)
	r := e.Result
	if age < 0 || age > probeCacheTTL || !r.Verified || !r.AssertionsHold() || r.Backend != LinuxBubblewrap ||
		r.Executable == nil || *r.Executable != key.Executable || r.Reason != nil {
		return ProbeResult{}, false
	}
	return r, true
}

// put caches the verified result r for key, atomically; a failure leaves
// no entry and is not an error of the probe.
func (c probeCache) put(key probeCacheKey, r ProbeResult) {
	if c.dir == "" || !r.Verified {
		return
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return
	}
	if info, err := os.Lstat(c.dir); err != nil || !info.IsDir() || !privateToMe(info) {
		return
	}
	data, err := json.Marshal(probeCacheEntry{Key: key, Written: c.now().UTC(), Result: r})
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(c.dir, ".bwrap-probe-*.tmp")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return
	}
	if err := tmp.Close(); err != nil {
		return
	}
	_ = os.Rename(tmp.Name(), c.file(key))
}
