package command_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"

	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// passingProbe is a probe result whose nine assertions all hold.
func passingProbe(backend command.Backend) command.ProbeResult {
	exe := "/usr/bin/bwrap"
	return command.ProbeResult{
		Available: true, Backend: backend, Executable: &exe, Verified: true,
		DescendantChildSpawned: true, DescendantQuiescent: true, HardLinkWriteDenied: true,
		NetworkDenied: true, OutsideWriteDenied: true, PrivateTempWrite: true,
		SystemRead: true, ToolchainExecution: true, WorkspaceWrite: true,
	}
}

// reasonOf returns a status reason, or "<nil>".
func reasonOf(s command.Status) string {
	if s.Reason == nil {
		return "<nil>"
	}
	return *s.Reason
}

var _ = Describe("containment status (LAB §13.3)", func() {
	It("is active, verified and contained only for a verified bubblewrap probe", func() {
		s := command.StatusFor(command.Required, passingProbe(command.LinuxBubblewrap))
		Expect(s.Active).To(BeTrue())
		Expect(s.Verified).To(BeTrue())
		Expect(s.State).To(Equal(command.StateActive))
		Expect(s.Reason).To(BeNil())
		Expect([]string{s.FilesystemReads, s.FilesystemWrites, s.Network}).To(Equal([]string{"system_and_workspace", "workspace_and_private_temp", "denied"}))
	})

	It("does not trust a claimed verification when an assertion failed", func() {
		p := passingProbe(command.LinuxBubblewrap)
		p.DescendantQuiescent = false
		s := command.StatusFor(command.BestEffort, p)
		Expect(s.Active).To(BeFalse())
		Expect(s.State).To(Equal(command.StateUnverified))
		Expect(reasonOf(s)).To(Equal("The backend claimed verification without passing every containment assertion."))
	})

	It("never activates a verified non-Linux backend", func() {
		s := command.StatusFor(command.BestEffort, passingProbe(command.MacOSSandboxExec))
		Expect(s.Active).To(BeFalse())
		Expect(s.State).To(Equal(command.StateUnverified))
		Expect(reasonOf(s)).To(Equal("The backend passed its probe but this platform implementation is not activated."))
	})

	It("reports a failed probe with its own reason", func() {
		exe := "/usr/bin/bwrap"
		s := command.StatusFor(command.BestEffort, command.UnavailableProbe(command.LinuxBubblewrap, &exe, true, "probe reason"))
		Expect(s.State).To(Equal(command.StateProbeFailed))
		Expect(reasonOf(s)).To(Equal("probe reason"))
	})

	It("never labels best effort without a backend as sandboxed", func() {
		root, _ := workspace()
		r := newRunner(root)
		s := r.Containment()
		Expect(s.Mode).To(Equal(command.BestEffort))
		Expect(s.Active).To(BeFalse())
		Expect(s.Verified).To(BeFalse())
		Expect([]string{s.FilesystemReads, s.FilesystemWrites, s.Network}).To(Equal([]string{"host_visible", "uncontained", "uncontained"}))
		got, err := json.Marshal(s)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(`{"active":false,"backend":"none","executable":null,"filesystemReads":"host_visible","filesystemWrites":"uncontained","mode":"best_effort","network":"uncontained","reason":"No command-containment probe was run.","state":"unavailable","verified":false}`))
	})

	It("rejects an unknown policy", func() {
		root, _ := workspace()
		_, err := command.New(command.Options{Root: root, Containment: "sandbox"})
		Expect(message(err)).To(Equal("containment must be 'best_effort' or 'required'."))
	})

	Describe("required mode without a verified backend", func() {
		var root, outside, sentinel string
		BeforeEach(func() {
			if runtime.GOOS == "windows" {
				Skip("the probe command is POSIX sh")
			}
			root, outside = workspace()
			sentinel = filepath.Join(outside, "sentinel")
			Expect(os.WriteFile(sentinel, []byte("original"), 0o644)).To(Succeed())
		})
		write := `printf changed > "$GALAXY_SENTINEL"`

		DescribeTable("refuses to spawn with UNAVAILABLE",
			func(probe *command.ProbeResult, msg string) {
				r := newRunner(root, func(o *command.Options) { o.Containment = command.Required; o.Probe = probe })
				Expect(r.Containment().Verified).To(BeFalse())
				Expect(r.Containment().FilesystemWrites).To(Equal("uncontained"))
				_, err := r.Run(context.Background(), command.Request{Command: write, Env: map[string]string{"GALAXY_SENTINEL": sentinel}})
				Expect(err).To(MatchError(command.ErrUnavailable))
				Expect(err.(*hosterr.Error).Retryable()).To(BeTrue())
				Expect(message(err)).To(Equal(msg))
				Expect(os.ReadFile(sentinel)).To(Equal([]byte("original")))
			},
			Entry("no probe", nil,
				"Required command containment is unavailable (none/unavailable): No command-containment probe was run."),
			Entry("every backend forbidden by the session", ptrTo(command.ForbiddenProbe()),
				"Required command containment is unavailable (none/unavailable): Command containment backends are forbidden for this session."),
			Entry("bwrap missing", ptrTo(command.UnavailableProbe(command.LinuxBubblewrap, nil, false, "bubblewrap (bwrap) is not available on PATH.")),
				"Required command containment is unavailable (linux_bubblewrap/unavailable): bubblewrap (bwrap) is not available on PATH."),
			Entry("a claimed but unproven verification", func() *command.ProbeResult {
				p := passingProbe(command.LinuxBubblewrap)
				p.NetworkDenied = false
				return &p
			}(), "Required command containment is unavailable (linux_bubblewrap/unverified): The backend claimed verification without passing every containment assertion."),
		)

		It("runs the same command in best-effort mode (the refusal check can fail)", func() {
			forbidden := command.ForbiddenProbe()
			r := newRunner(root, func(o *command.Options) { o.Probe = &forbidden })
			_, err := r.Run(context.Background(), command.Request{Command: write, Env: map[string]string{"GALAXY_SENTINEL": sentinel}})
			Expect(err).NotTo(HaveOccurred())
			Expect(os.ReadFile(sentinel)).To(Equal([]byte("changed")))
		})
	})
})

// ptrTo returns a pointer to a copy of v.
func ptrTo[T any](v T) *T { return &v }

var _ = Describe("bubblewrap arguments (LAB §13.4)", func() {
	if runtime.GOOS == "windows" {
		return
	}
	noNix := func(p string) bool { return p != "/nix/store" && p != "/opt" }

	It("is the fixed prefix, existing read-only roots, the workspace, sorted env, chdir and the command", func() {
		args, err := command.BubblewrapArgs(command.BubblewrapInput{
			Command: "/bin/sh", Args: []string{"-c", "echo hi"},
			Cwd: "/w/root/src/pkg", Workspace: "/w/root",
			Env:    map[string]string{"PATH": "/usr/bin", "CI": "1", "A_B": "x y"},
			Exists: noNix,
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(args).To(Equal([]string{
			"--die-with-parent", "--new-session", "--unshare-all", "--disable-userns", "--cap-drop", "ALL",
			"--clearenv", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
			"--ro-bind", "/bin", "/bin", "--ro-bind", "/etc", "/etc", "--ro-bind", "/lib", "/lib",
			"--ro-bind", "/lib64", "/lib64", "--ro-bind", "/sbin", "/sbin", "--ro-bind", "/usr", "/usr",
			"--bind", "/w/root", "/workspace",
			"--setenv", "A_B", "x y", "--setenv", "CI", "1", "--setenv", "PATH", "/usr/bin",
			"--chdir", "/workspace/src/pkg", "--", "/bin/sh", "-c", "echo hi",
		}))
	})

	It("chdirs to /workspace for the root and adds --unshare-user only when asked", func() {
		args, err := command.BubblewrapArgs(command.BubblewrapInput{
			Command: "/bin/sh", Cwd: "/w/root", Workspace: "/w/root", UnshareUser: true,
			Exists: func(string) bool { return false },
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(args[:4]).To(Equal([]string{"--die-with-parent", "--new-session", "--unshare-all", "--unshare-user"}))
		Expect(args[len(args)-4:]).To(Equal([]string{"--chdir", "/workspace", "--", "/bin/sh"}))
	})

	It("refuses a cwd outside the workspace", func() {
		_, err := command.BubblewrapArgs(command.BubblewrapInput{Command: "/bin/sh", Cwd: "/w", Workspace: "/w/root"})
		Expect(message(err)).To(Equal("Contained command cwd must remain inside the workspace."))
	})
})

var _ = Describe("hard-link preflight (LAB §13.5)", func() {
	if runtime.GOOS == "windows" {
		return
	}
	var root, outside string
	BeforeEach(func() {
		root, outside = workspace()
		Expect(os.MkdirAll(filepath.Join(root, ".git", "objects"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "plain.txt"), []byte("x"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(outside, "target"), []byte("x"), 0o644)).To(Succeed())
		Expect(os.Symlink(filepath.Join(outside, "target"), filepath.Join(root, "link-to-outside"))).To(Succeed())
	})

	It("accepts a workspace without hard links, skipping symlinks", func() {
		Expect(command.CheckHardLinks(root)).To(Succeed())
	})

	It("refuses a hard-linked file anywhere, .git included", func() {
		Expect(os.Link(filepath.Join(outside, "target"), filepath.Join(root, ".git", "objects", "linked"))).To(Succeed())
		err := command.CheckHardLinks(root)
		Expect(err).To(MatchError(command.ErrPermissionDenied))
		Expect(message(err)).To(Equal("Contained command refused hard-linked workspace file '.git/objects/linked'."))
	})
})
