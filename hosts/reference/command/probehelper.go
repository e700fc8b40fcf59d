package command

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"time"
)

// probeRoleEnv marks the helper's own late descendant.
const probeRoleEnv = "GALAXY_PROBE_ROLE"

// ProbeHelperMain is the in-sandbox half of the containment probe
// (LAB_AND_HOSTS §13.2 step 6, DECISIONS 64). The host binary calls it when
// started with the [ProberConfig] HelperArgs and exits with its result. It
// reads /etc/hosts, writes the workspace and private-temp files named by
// the GALAXY_PROBE_* variables, tries to write the outside and hard-link
// files, starts a detached descendant that writes the late file 250 ms
// later, tries to connect to the host's loopback listener, and prints its
// findings as one JSON object on stdout. It returns the exit code.
func ProbeHelperMain(stdout io.Writer) int {
	if os.Getenv(probeRoleEnv) == "late" {
		time.Sleep(250 * time.Millisecond)
		_ = os.WriteFile(os.Getenv("GALAXY_PROBE_LATE_FILE"), []byte("late"), 0o644)
		return 0
	}
	var p probePayload
	func() {
		if _, err := os.ReadFile("/etc/hosts"); err != nil {
			return
		}
		p.SystemRead = true
		if os.WriteFile(os.Getenv("GALAXY_PROBE_WORKSPACE_FILE"), []byte("workspace-ok"), 0o644) != nil {
			return
		}
		p.WorkspaceWrite = true
		if os.WriteFile(os.Getenv("GALAXY_PROBE_TEMP_FILE"), []byte("temp-ok"), 0o644) != nil {
			return
		}
		p.PrivateTempWrite = true
		if err := os.WriteFile(os.Getenv("GALAXY_PROBE_OUTSIDE_FILE"), []byte("changed"), 0o644); err != nil {
			p.OutsideWriteDenied = true
		}
		if err := os.WriteFile(os.Getenv("GALAXY_PROBE_HARD_LINK_FILE"), []byte("changed-through-link"), 0o644); err != nil {
			p.HardLinkWriteDenied = errors.Is(err, fs.ErrPermission)
		}
		self, err := os.Executable()
		if err != nil {
			return
		}
		child := exec.Command(self, os.Args[1:]...)
		child.Env = append(os.Environ(), probeRoleEnv+"=late")
		child.SysProcAttr = detachedAttr()
		if child.Start() == nil {
			p.DescendantChildSpawned = true
			_ = child.Process.Release()
		}
	}()
	conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", os.Getenv("GALAXY_PROBE_PORT")), 2*time.Second)
	if err != nil {
		p.NetworkDenied = true
	} else {
		conn.Close()
	}
	if err := json.NewEncoder(stdout).Encode(p); err != nil {
		return 1
	}
	return 0
}
