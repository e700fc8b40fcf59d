package command

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// ProberConfig configures a [Prober].
type ProberConfig struct {
	// Executable is the host's own binary, re-executed inside the sandbox
	// as the probe helper (DECISIONS 64); "" means os.Executable().
	Executable string
	// HelperArgs are the arguments that make Executable call
	// [ProbeHelperMain] and exit with its result (a hidden subcommand). Nil
	// means no helper: the probe then fails its in-sandbox assertions.
	HelperArgs []string
	// Path is the search path for bwrap; "" means $PATH.
	Path string
	// TempDir is where the probe's scratch directories go; "" means
	// os.TempDir().
	TempDir string
	// CacheDir is where verified probe results are cached between
	// processes (see probe_cache.go); "" means [DefaultProbeCacheDir].
	CacheDir string
	// NoCache turns the probe cache off: every Prober probes.
	NoCache bool

	now func() time.Time // the cache's clock; nil means time.Now
}

// A Prober runs the containment probe once and caches its result
// (LAB_AND_HOSTS §13.2). A host creates one Prober per process and shares
// it among its Runners. A Prober is safe for concurrent use.
type Prober struct {
	cfg    ProberConfig
	once   sync.Once
	result ProbeResult
}

// NewProber returns a Prober that has not probed yet.
func NewProber(cfg ProberConfig) *Prober { return &Prober{cfg: cfg} }

// Probe returns the probe result, running the probe on the first call:
// bubblewrap on Linux, a diagnostic Seatbelt check on macOS (never
// verified), and "unavailable" elsewhere. A merely installed binary is not
// enough: only a backend passing all nine assertions is verified. An
// unexpected failure fails closed to backend "none", unavailable.
func (p *Prober) Probe() ProbeResult {
	p.once.Do(func() { p.result = detect(p.cfg) })
	return p.result
}

// detect runs the platform's probe, failing closed on a panic.
func detect(cfg ProberConfig) (result ProbeResult) {
	defer func() {
		if v := recover(); v != nil {
			result = UnavailableProbe(NoBackend, nil, false, fmt.Sprintf("Command-containment detection failed closed: %v", v))
		}
	}()
	switch runtime.GOOS {
	case "linux":
		return probeBubblewrap(cfg)
	case "darwin":
		return probeSeatbelt()
	}
	return UnavailableProbe(NoBackend, nil, false,
		fmt.Sprintf("No command-containment backend is implemented for '%s'.", NodePlatform(runtime.GOOS)))
}

// seatbeltExecutable is macOS's sandbox launcher.
const seatbeltExecutable = "/usr/bin/sandbox-exec"

// probeSeatbelt reports macOS Seatbelt. The original probes it for
// diagnostics only and it never activates (it fails hardLinkWriteDenied
// and descendantQuiescent); this host does not run the in-sandbox part, so
// an executable sandbox-exec reports probe_failed with that reason.
func probeSeatbelt() ProbeResult {
	exe := seatbeltExecutable
	if !isExecutableFile(exe) {
		return UnavailableProbe(MacOSSandboxExec, &exe, false, exe+" is not executable.")
	}
	return UnavailableProbe(MacOSSandboxExec, &exe, true,
		"The Seatbelt conformance probe failed: this host does not run the Seatbelt probe; Seatbelt is never activated.")
}

// executableOnPath returns the first executable regular file called name
// in the search path, or "".
func executableOnPath(path, name string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		if candidate := filepath.Join(dir, name); isExecutableFile(candidate) {
			return candidate
		}
	}
	return ""
}

// isExecutableFile reports whether path is a regular file with an execute
// bit.
func isExecutableFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}

// newUUID returns a random version-4 UUID string.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
