package command

import (
	"fmt"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// Mode is the containment policy a session asks for (LAB_AND_HOSTS §13.1).
type Mode string

// The two containment policies.
const (
	// BestEffort runs commands without containment unless a verified
	// backend is active. It is not a security boundary and is never
	// labelled sandboxed.
	BestEffort Mode = "best_effort"
	// Required refuses every command with UNAVAILABLE before spawning
	// unless a verified backend is active.
	Required Mode = "required"
)

// Backend names a containment backend (LAB_AND_HOSTS §13.2).
type Backend string

// The containment backends. Only LinuxBubblewrap can ever become active;
// MacOSSandboxExec is probed for diagnostics only.
const (
	LinuxBubblewrap  Backend = "linux_bubblewrap"
	MacOSSandboxExec Backend = "macos_sandbox_exec"
	NoBackend        Backend = "none"
)

// State is the containment state a [Status] reports.
type State string

// The four containment states (LAB_AND_HOSTS §13.3).
const (
	StateActive      State = "active"
	StateProbeFailed State = "probe_failed"
	StateUnavailable State = "unavailable"
	StateUnverified  State = "unverified"
)

// A ProbeResult is what the containment probe found (LAB_AND_HOSTS §13.2):
// whether a backend exists, and the nine conformance assertions. Verified
// is the probe's own claim; [StatusFor] trusts it only when every assertion
// also holds. Executable and Reason are nil when absent (JSON null).
type ProbeResult struct {
	Available              bool    `json:"available"`
	Backend                Backend `json:"backend"`
	DescendantChildSpawned bool    `json:"descendantChildSpawned"`
	DescendantQuiescent    bool    `json:"descendantQuiescent"`
	Executable             *string `json:"executable"`
	HardLinkWriteDenied    bool    `json:"hardLinkWriteDenied"`
	NetworkDenied          bool    `json:"networkDenied"`
	OutsideWriteDenied     bool    `json:"outsideWriteDenied"`
	PrivateTempWrite       bool    `json:"privateTempWrite"`
	Reason                 *string `json:"reason"`
	SystemRead             bool    `json:"systemRead"`
	ToolchainExecution     bool    `json:"toolchainExecution"`
	Verified               bool    `json:"verified"`
	WorkspaceWrite         bool    `json:"workspaceWrite"`
}

// AssertionsHold reports whether all nine conformance assertions are true.
func (p ProbeResult) AssertionsHold() bool {
	return p.DescendantChildSpawned && p.DescendantQuiescent && p.HardLinkWriteDenied &&
		p.NetworkDenied && p.OutsideWriteDenied && p.PrivateTempWrite && p.SystemRead &&
		p.ToolchainExecution && p.WorkspaceWrite
}

// failedAssertions names the false assertions in name order.
func (p ProbeResult) failedAssertions() []string {
	checks := []struct {
		name string
		ok   bool
	}{
		{"descendantChildSpawned", p.DescendantChildSpawned},
		{"descendantQuiescent", p.DescendantQuiescent},
		{"hardLinkWriteDenied", p.HardLinkWriteDenied},
		{"networkDenied", p.NetworkDenied},
		{"outsideWriteDenied", p.OutsideWriteDenied},
		{"privateTempWrite", p.PrivateTempWrite},
		{"systemRead", p.SystemRead},
		{"toolchainExecution", p.ToolchainExecution},
		{"workspaceWrite", p.WorkspaceWrite},
	}
	var failed []string
	for _, c := range checks {
		if !c.ok {
			failed = append(failed, c.name)
		}
	}
	return failed
}

// UnavailableProbe returns a probe result with every assertion false, not
// verified, for the given backend, executable (nil when unknown),
// availability and reason.
func UnavailableProbe(backend Backend, executable *string, available bool, reason string) ProbeResult {
	return ProbeResult{Available: available, Backend: backend, Executable: executable, Reason: &reason}
}

// ForbiddenProbe is the probe result of a session whose harness forbids
// every containment backend (DECISIONS 65): no backend is available, so
// containment reports unavailable and required mode refuses every command
// before spawning.
func ForbiddenProbe() ProbeResult {
	return UnavailableProbe(NoBackend, nil, false, "Command containment backends are forbidden for this session.")
}

// notProbed is the probe result when no probe was supplied.
func notProbed() ProbeResult {
	return UnavailableProbe(NoBackend, nil, false, "No command-containment probe was run.")
}

// A Status is the containment status a host publishes and enforces
// (LAB_AND_HOSTS §13.3). It is reported separately from cwd validation:
// cwd checks apply to every command, containment only describes what the
// process itself can reach. Verified is true only when Active.
type Status struct {
	Active           bool    `json:"active"`
	Backend          Backend `json:"backend"`
	Executable       *string `json:"executable"`
	FilesystemReads  string  `json:"filesystemReads"`
	FilesystemWrites string  `json:"filesystemWrites"`
	Mode             Mode    `json:"mode"`
	Network          string  `json:"network"`
	Reason           *string `json:"reason"`
	State            State   `json:"state"`
	Verified         bool    `json:"verified"`
}

// StatusFor derives the containment status of a policy from a probe
// (LAB_AND_HOSTS §13.3): active only for a verified Linux bubblewrap probe
// whose nine assertions all hold; otherwise host-visible reads,
// uncontained writes and network, and a reason.
func StatusFor(mode Mode, probe ProbeResult) Status {
	holds := probe.AssertionsHold()
	active := probe.Backend == LinuxBubblewrap && probe.Verified && holds
	var state State
	switch {
	case !probe.Available:
		state = StateUnavailable
	case active:
		state = StateActive
	case probe.Verified:
		state = StateUnverified
	default:
		state = StateProbeFailed
	}
	var reason *string
	switch {
	case active:
	case probe.Verified && !holds:
		reason = ptr("The backend claimed verification without passing every containment assertion.")
	case probe.Verified:
		reason = ptr("The backend passed its probe but this platform implementation is not activated.")
	default:
		reason = probe.Reason
	}
	s := Status{
		Active: active, Backend: probe.Backend, Executable: probe.Executable, Mode: mode,
		Reason: reason, State: state, Verified: active,
		FilesystemReads: "host_visible", FilesystemWrites: "uncontained", Network: "uncontained",
	}
	if active {
		s.FilesystemReads, s.FilesystemWrites, s.Network = "system_and_workspace", "workspace_and_private_temp", "denied"
	}
	return s
}

// gate refuses a command before spawn when the policy requires a verified
// backend that is not active (LAB_AND_HOSTS §11.2 step 7).
func (s Status) gate() error {
	if s.Mode != Required || s.Active {
		return nil
	}
	reason := "the backend did not pass conformance"
	if s.Reason != nil {
		reason = *s.Reason
	}
	return &hosterr.Error{Library: library, Code: hosterr.Unavailable, Message: fmt.Sprintf("Required command containment is unavailable (%s/%s): %s", s.Backend, s.State, reason)}
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }
