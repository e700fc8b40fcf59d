package command

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/internal/atomicfile"
	"github.com/galaxy-stack/conform/internal/filehash"
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
// The cache directory must belong to the effective user and be open to
// nobody else (0700), and each entry writable by nobody else, or the cache
// is not used: another user must not be able to plant a verified result.
//
// An entry is trusted only if conform wrote it: it carries an HMAC-SHA256
// of its content keyed by the cache's key file ([probeKeyFile]), 32 random
// bytes created 0600 in the cache directory by the first put, and checked
// for owner and mode (no access for group or others) before each use. A
// host the harness does not trust is never told where the cache is (the
// harness passes CONFORM_CACHE_DIR to its built-in hosts only), so an
// entry such a host writes where it guesses the cache is lacks the MAC and
// is ignored. This stops a host that writes the documented entry format;
// it does not stop a process of the same user that reads the key file
// first (nothing the user's own processes can read is secret from them).
//
// Entries are written to a temporary file and renamed into place; an entry
// that cannot be read or decoded, whose MAC does not match, or whose
// result is not verified, is ignored and the probe runs. A directory that
// cannot be created or written means no cache.
const (
	// ProbeCacheDirEnv names the environment variable that sets the probe
	// cache directory; the value "off" turns the cache off.
	ProbeCacheDirEnv = "CONFORM_CACHE_DIR"
	// probeVersion changes whenever the probe or its helper changes what
	// they check, so that no result of an older probe is reused.
	probeVersion = "bwrap-probe-2"
	// probeCacheTTL is how long a cached result is used.
	probeCacheTTL = 24 * time.Hour
	// probeKeyFile is the name of the cache's MAC key in its directory.
	probeKeyFile = "probe-cache.key"
	// probeKeySize is the length of the MAC key, in bytes.
	probeKeySize = 32
)

// userCacheDir returns the user's cache directory, under which the default
// probe cache lives. It is a seam: the package's tests point it at a
// temporary directory (export_test.go) so that they never write into the
// user's cache.
var userCacheDir = os.UserCacheDir

// DefaultProbeCacheDir returns the probe cache directory a [ProberConfig]
// with an empty CacheDir uses: $CONFORM_CACHE_DIR when it is set ("" when
// it is "off"); otherwise os.UserCacheDir()/conform, or "" when there is
// none.
func DefaultProbeCacheDir() string {
	if v, ok := os.LookupEnv(ProbeCacheDirEnv); ok {
		if v == "off" {
			return ""
		}
		return v
	}
	dir, err := userCacheDir()
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

// probeCacheEntry is what one cache file holds.
type probeCacheEntry struct {
	Key     probeCacheKey `json:"key"`
	Written time.Time     `json:"written"`
	Result  ProbeResult   `json:"result"`
}

// probeCacheFile is one cache file: the entry as written, and its
// HMAC-SHA256 under the cache's key, in hex.
type probeCacheFile struct {
	Entry json.RawMessage `json:"entry"`
	MAC   string          `json:"mac"`
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
	sum, err := filehash.SHA256(bwrap)
	if err != nil {
		return probeCacheKey{}, false
	}
	return probeCacheKey{
		ProbeVersion: probeVersion,
		Executable:   bwrap,
		SHA256:       sum,
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
	if !c.private() {
		return ProbeResult{}, false
	}
	mk, ok := c.macKey()
	if !ok {
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
	var f probeCacheFile
	if err := json.Unmarshal(data, &f); err != nil {
		return ProbeResult{}, false
	}
	mac, err := hex.DecodeString(f.MAC)
	if err != nil || !hmac.Equal(mac, macOf(mk, f.Entry)) {
		return ProbeResult{}, false
	}
	var e probeCacheEntry
	if err := json.Unmarshal(f.Entry, &e); err != nil || e.Key != key {
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
	if !c.private() {
		return
	}
	mk, ok := c.macKey()
	if !ok {
		if !c.makeKey() {
			return
		}
		if mk, ok = c.macKey(); !ok {
			return
		}
	}
	entry, err := json.Marshal(probeCacheEntry{Key: key, Written: c.now().UTC(), Result: r})
	if err != nil {
		return
	}
	data, err := json.Marshal(probeCacheFile{Entry: entry, MAC: hex.EncodeToString(macOf(mk, entry))})
	if err != nil {
		return
	}
	_ = atomicfile.WriteFile(c.file(key), data, 0o600)
}

// private reports whether the cache directory is a directory of the
// effective user that nobody else can enter.
func (c probeCache) private() bool {
	info, err := os.Lstat(c.dir)
	return err == nil && info.IsDir() && privateToMe(info) && info.Mode().Perm()&0o077 == 0
}

// macOf is the MAC of a cache entry under key.
func macOf(key, entry []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(entry)
	return m.Sum(nil)
}

// macKey reads the cache's MAC key: a regular file (not a link) of the
// effective user that nobody else can read or write, of probeKeySize
// bytes. It returns false when there is no such key.
func (c probeCache) macKey() ([]byte, bool) {
	name := filepath.Join(c.dir, probeKeyFile)
	info, err := os.Lstat(name)
	if err != nil || !info.Mode().IsRegular() || !privateToMe(info) || info.Mode().Perm()&0o077 != 0 || info.Size() != probeKeySize {
		return nil, false
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if opened, err := f.Stat(); err != nil || !os.SameFile(info, opened) {
		return nil, false // replaced between the check and the open
	}
	key := make([]byte, probeKeySize)
	if _, err := io.ReadFull(f, key); err != nil {
		return nil, false
	}
	return key, true
}

// makeKey creates the cache's MAC key, 0600, unless one exists: the key is
// written in full to a temporary file and linked into place, so that a
// concurrent reader never sees half a key and a concurrent writer's key is
// never replaced. It reports whether a key file now exists.
func (c probeCache) makeKey() bool {
	key := make([]byte, probeKeySize)
	if _, err := rand.Read(key); err != nil {
		return false
	}
	tmp, err := os.CreateTemp(c.dir, ".probe-cache-key-*.tmp")
	if err != nil {
		return false
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return false
	}
	if _, err := tmp.Write(key); err != nil {
		tmp.Close()
		return false
	}
	if err := tmp.Close(); err != nil {
		return false
	}
	err = os.Link(tmp.Name(), filepath.Join(c.dir, probeKeyFile))
	return err == nil || os.IsExist(err)
}
