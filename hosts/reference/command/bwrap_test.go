package command_test

import (
	"os"
	"path/filepath"
	"runtime"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/reference/command"
)

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
