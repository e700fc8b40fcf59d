package command

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"
)

// Probe timings and bounds (LAB_AND_HOSTS §13.2 steps 6-7).
const (
	probeTimeout       = 5 * time.Second
	probeForceFinish   = time.Second
	probeObservation   = 700 * time.Millisecond
	probeOutputLimit   = 64000
	probeSandboxPath   = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
	probeFailurePrefix = "The bubblewrap conformance probe failed: "
)

// probePayload is what the in-sandbox helper prints.
type probePayload struct {
	DescendantChildSpawned bool `json:"descendantChildSpawned"`
	HardLinkWriteDenied    bool `json:"hardLinkWriteDenied"`
	NetworkDenied          bool `json:"networkDenied"`
	OutsideWriteDenied     bool `json:"outsideWriteDenied"`
	PrivateTempWrite       bool `json:"privateTempWrite"`
	SystemRead             bool `json:"systemRead"`
	WorkspaceWrite         bool `json:"workspaceWrite"`
}

// probeBubblewrap runs the Linux bubblewrap probe (LAB_AND_HOSTS §13.2):
// find bwrap on the path; answer from the probe cache when it holds a
// verified result for this bwrap (probe_cache.go); otherwise check the
// hard-link preflight on a scratch workspace, run the host's own binary as
// helper inside the §13.4 sandbox, and verify its claims from outside. No
// helper means no verified result, so the cache is then not consulted.
func probeBubblewrap(cfg ProberConfig) ProbeResult {
	path := cfg.Path
	if path == "" {
		path = os.Getenv("PATH")
	}
	bwrap := executableOnPath(path, "bwrap")
	if bwrap == "" {
		return UnavailableProbe(LinuxBubblewrap, nil, false, "bubblewrap (bwrap) is not available on PATH.")
	}
	cache := newProbeCache(cfg)
	key, keyed := keyFor(bwrap)
	keyed = keyed && cfg.HelperArgs != nil
	if keyed {
		if res, ok := cache.get(key); ok {
			return res
		}
	}
	res, err := runBubblewrapProbe(cfg, bwrap)
	if err != nil {
		return UnavailableProbe(LinuxBubblewrap, &bwrap, true, probeFailurePrefix+err.Error())
	}
	if keyed {
		cache.put(key, res)
	}
	return res
}

// runBubblewrapProbe does the work of probeBubblewrap once bwrap is found;
// the scratch directory (see probe_scratch.go) and the listener are always
// cleaned up, and a scratch directory that cannot be removed fails the
// probe.
func runBubblewrapProbe(cfg ProberConfig, bwrap string) (res ProbeResult, err error) {
	sc, err := newScratch(cfg.TempDir)
	if err != nil {
		return ProbeResult{}, err
	}
	defer func() {
		if rerr := sc.remove(); rerr != nil && err == nil {
			res, err = ProbeResult{}, fmt.Errorf("unable to remove the probe's scratch directory: %w", rerr)
		}
	}()
	workspace, err := sc.dir("workspace")
	if err != nil {
		return ProbeResult{}, err
	}
	outside, err := sc.dir("outside")
	if err != nil {
		return ProbeResult{}, err
	}
	workspaceName := "workspace-" + newUUID()
	lateName := "late-" + newUUID()
	outsideFile := filepath.Join(outside, "sentinel-"+newUUID())
	hardLinkTarget := filepath.Join(outside, "hard-link-target-"+newUUID())
	hardLink := filepath.Join(workspace, "hard-link-"+newUUID())
	sentinel := "outside-" + newUUID()
	for _, f := range []string{outsideFile, hardLinkTarget} {
		if err := os.WriteFile(f, []byte(sentinel), 0o644); err != nil {
			return ProbeResult{}, err
		}
	}
	if err := os.Link(hardLinkTarget, hardLink); err != nil {
		return ProbeResult{}, err
	}
	hardLinkWriteDenied := CheckHardLinks(workspace) != nil
	if err := os.Remove(hardLink); err != nil {
		return ProbeResult{}, err
	}

	helper, err := installHelper(cfg, workspace)
	if err != nil {
		return ProbeResult{}, err
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return ProbeResult{}, err
	}
	defer listener.Close()
	var connections atomic.Int64
	go func() {
		for {
			conn, err := listener.Accept()
			if err != nil {
				return
			}
			connections.Add(1)
			conn.Close()
		}
	}()
	port := listener.Addr().(*net.TCPAddr).Port
	env := map[string]string{
		"CI":                          "1",
		"FORCE_COLOR":                 "0",
		"GALAXY_PROBE_HARD_LINK_FILE": "/workspace/nonexistent-hard-link",
		"GALAXY_PROBE_LATE_FILE":      "/workspace/" + lateName,
		"GALAXY_PROBE_OUTSIDE_FILE":   outsideFile,
		"GALAXY_PROBE_PORT":           strconv.Itoa(port),
		"GALAXY_PROBE_TEMP_FILE":      "/tmp/probe-temp",
		"GALAXY_PROBE_WORKSPACE_FILE": "/workspace/" + workspaceName,
		"PATH":                        probeSandboxPath,
		"TEMP":                        "/tmp",
		"TMP":                         "/tmp",
		"TMPDIR":                      "/tmp",
	}
	args, err := BubblewrapArgs(BubblewrapInput{
		Command: helper, Args: cfg.HelperArgs, Cwd: workspace, Env: env,
		Workspace: workspace, UnshareUser: os.Geteuid() == 0,
	})
	if err != nil {
		return ProbeResult{}, err
	}
	proc := runProbeProcess(bwrap, args, envList(env))
	time.Sleep(probeObservation)

	var payload probePayload
	parsed := json.Unmarshal([]byte(proc.stdout), &payload) == nil
	read := func(p string) string { b, _ := os.ReadFile(p); return string(b) }
	res = ProbeResult{
		Available:              true,
		Backend:                LinuxBubblewrap,
		Executable:             &bwrap,
		DescendantChildSpawned: parsed && payload.DescendantChildSpawned,
		DescendantQuiescent:    parsed && payload.DescendantChildSpawned && read(filepath.Join(workspace, lateName)) == "",
		HardLinkWriteDenied:    hardLinkWriteDenied,
		NetworkDenied:          parsed && payload.NetworkDenied && connections.Load() == 0,
		OutsideWriteDenied:     parsed && payload.OutsideWriteDenied && read(outsideFile) == sentinel,
		PrivateTempWrite:       parsed && payload.PrivateTempWrite,
		SystemRead:             parsed && payload.SystemRead,
		ToolchainExecution:     proc.exitCode != nil && *proc.exitCode == 0 && !proc.timedOut,
		WorkspaceWrite:         parsed && payload.WorkspaceWrite && read(filepath.Join(workspace, workspaceName)) == "workspace-ok",
	}
	res.Verified = res.AssertionsHold()
	if !res.Verified {
		reason := fmt.Sprintf("%s%s.", probeFailurePrefix, joinNames(res.failedAssertions()))
		res.Reason = &reason
	}
	return res, nil
}

// installHelper copies the host's own binary into the scratch workspace,
// the only host directory the sandbox can execute from that is certain to
// hold it, and returns its path inside the sandbox.
func installHelper(cfg ProberConfig, workspace string) (string, error) {
	if cfg.HelperArgs == nil {
		return "", fmt.Errorf("no in-sandbox probe helper is configured")
	}
	exe := cfg.Executable
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return "", err
		}
	}
	src, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer src.Close()
	name := "probe-helper-" + newUUID()
	dst, err := os.OpenFile(filepath.Join(workspace, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return "", err
	}
	if err := dst.Close(); err != nil {
		return "", err
	}
	return "/workspace/" + name, nil
}

// probeProcess is how the sandboxed probe ended.
type probeProcess struct {
	exitCode       *int
	stdout, stderr string
	timedOut       bool
}

// runProbeProcess runs the sandboxed probe in its own process group with
// the probe timeout (then SIGKILL to the group, and a forced finish a
// second later), keeping at most probeOutputLimit bytes of each stream.
func runProbeProcess(exe string, args, env []string) probeProcess {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	var stdout, stderr limitedBuffer
	argv := append([]string{exe}, args...)
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Args = argv
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = sysProcAttr(argv)
	cmd.Cancel = func() error {
		terminateTree(cmd.Process, true)
		return nil
	}
	cmd.WaitDelay = probeForceFinish
	err := cmd.Run()
	p := probeProcess{stdout: string(stdout.b), stderr: string(stderr.b), timedOut: ctx.Err() != nil}
	if err == nil || cmd.ProcessState != nil && cmd.ProcessState.Exited() {
		code := cmd.ProcessState.ExitCode()
		p.exitCode = &code
	}
	if cmd.Process != nil {
		reapGroup(cmd.Process.Pid, 0)
	}
	return p
}

// limitedBuffer keeps the first probeOutputLimit bytes written to it.
type limitedBuffer struct{ b []byte }

// Write keeps what fits and reports everything written.
func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := probeOutputLimit - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// joinNames joins names with ", ".
func joinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}
