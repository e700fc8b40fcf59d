//go:build unix

package command_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/internal/proc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// skipWithoutProc skips a spec that reads /proc.
func skipWithoutProc() {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		Skip("no /proc on this platform")
	}
}

var _ = Describe("Run", func() {
	var (
		root string
		r    *command.Runner
	)
	BeforeEach(func() {
		root, _ = workspace()
		r = newRunner(root)
	})

	Describe("exit status", func() {
		It("returns a zero exit as exited with code 0", func() {
			res := run(r, "true")
			Expect(res.Status).To(Equal(command.StatusExited))
			Expect(res.ExitCode).To(Equal(exit(0)))
		})

		It("returns a non-zero exit as a structured result, not an error", func() {
			res := run(r, "echo failing; exit 3")
			Expect(res.Status).To(Equal(command.StatusExited))
			Expect(res.ExitCode).To(Equal(exit(3)))
			Expect(res.Stdout).To(Equal("failing\n"))
			Expect(res.Command).To(Equal("echo failing; exit 3"))
		})

		It("keeps stdout and stderr apart", func() {
			res := run(r, "printf out1; printf err1 >&2; printf out2; printf err2 >&2")
			Expect(res.Stdout).To(Equal("out1out2"))
			Expect(res.Stderr).To(Equal("err1err2"))
			Expect(res.StdoutTruncated).To(BeFalse())
			Expect(res.StderrTruncated).To(BeFalse())
		})
	})

	Describe("the interpreter", func() {
		It("passes shell metacharacters to the shell as one command string", func() {
			res := run(r, `printf '%s|%s|%s' "a b" '$HOME;*' "$(printf x)" && echo && false || echo chained`)
			Expect(res.Stdout).To(Equal("a b|$HOME;*|x\nchained\n"))
		})

		It("runs the POSIX dialect probe: variables, redirection, Unicode and space paths", func() {
			res := run(r, `GALAXY_LOCAL_VALUE='sh value'; test "$GALAXY_LOCAL_VALUE" = 'sh value' && printf '%s' sh-ok > 'space ü.txt' && cat 'space ü.txt'`)
			Expect(res.Stdout).To(Equal("sh-ok"))
			Expect(filepath.Join(root, "space ü.txt")).To(BeARegularFile())
		})

		It("spawns exactly the published executable and argument prefix", func() {
			skipWithoutProc()
			cmd := `tr '\0' '\n' < /proc/$$/cmdline; true`
			res := run(r, cmd)
			Expect(strings.Split(strings.TrimSuffix(res.Stdout, "\n"), "\n")).To(Equal(r.Environment().Command.Argv(cmd)))
		})

		It("shows a different published interpreter in the spawned argv (the check can fail)", func() {
			skipWithoutProc()
			if _, err := os.Stat("/bin/bash"); err != nil {
				Skip("no /bin/bash to publish")
			}
			env, err := command.DetectEnvironment()
			Expect(err).NotTo(HaveOccurred())
			env.Command.Executable = "/bin/bash"
			bash := newRunner(root, func(o *command.Options) { o.Environment = &env })
			res := run(bash, `tr '\0' '\n' < /proc/$$/cmdline; true`)
			Expect(res.Stdout).To(HavePrefix("/bin/bash\n-c\n"))
			Expect(strings.Split(strings.TrimSuffix(res.Stdout, "\n"), "\n")).NotTo(Equal(r.Environment().Command.Argv(`tr '\0' '\n' < /proc/$$/cmdline; true`)))
		})

		It("closes stdin, so a reader sees end of input at once", func() {
			res := run(r, "cat; echo done")
			Expect(res.Stdout).To(Equal("done\n"))
			within(res.DurationMs, 3*time.Second)
		})

		It("gives the command no terminal", func() {
			res := run(r, "test -t 0; echo $?; test -t 1; echo $?; test -t 2; echo $?")
			Expect(res.Stdout).To(Equal("1\n1\n1\n"))
		})
	})

	Describe("environment", func() {
		It("passes the minimal environment plus overrides, never HOME or other host variables", func() {
			host := []string{"PATH=" + os.Getenv("PATH"), "HOME=/home/someone", "SECRET_TOKEN=s3cr3t", "LANG=C.UTF-8"}
			r = newRunner(root, func(o *command.Options) { o.HostEnv = host })
			res, err := r.Run(context.Background(), command.Request{
				Command: `printf '%s|%s|%s|%s|%s|%s' "$CI" "$FORCE_COLOR" "${HOME-unset}" "${SECRET_TOKEN-unset}" "$LANG" "$GALAXY_INHERITED_VALUE"`,
				Env:     map[string]string{"GALAXY_INHERITED_VALUE": "from-host"},
			})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Stdout).To(Equal("1|0|unset|unset|C.UTF-8|from-host"))
		})

		It("lets overrides replace inherited and fixed variables", func() {
			res, err := r.Run(context.Background(), command.Request{Command: `printf '%s' "$CI"`, Env: map[string]string{"CI": "override"}})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Stdout).To(Equal("override"))
		})

		DescribeTable("rejects invalid entries before spawning",
			func(env map[string]string, name string) {
				_, err := r.Run(context.Background(), command.Request{Command: "touch marker", Env: env})
				Expect(code(err)).To(Equal(hosterr.InvalidInput))
				Expect(message(err)).To(Equal("Invalid environment entry '" + name + "'."))
				Expect(filepath.Join(root, "marker")).NotTo(BeAnExistingFile())
			},
			Entry("a dash in the name", map[string]string{"BAD-NAME": "x"}, "BAD-NAME"),
			Entry("a leading digit", map[string]string{"1X": "x"}, "1X"),
			Entry("a NUL in the value", map[string]string{"GOOD": "a\x00b"}, "GOOD"),
			Entry("the first invalid name in name order", map[string]string{"Z-Z": "", "A-A": ""}, "A-A"),
		)
	})

	Describe("input validation", func() {
		DescribeTable("refuses bad requests with the port's code and message, spawning nothing",
			func(req command.Request, c hosterr.Code, msg string) {
				if req.Command == "" {
					req.Command = "touch marker"
				}
				_, err := r.Run(context.Background(), req)
				Expect(code(err)).To(Equal(c))
				Expect(message(err)).To(Equal(msg))
				Expect(filepath.Join(root, "marker")).NotTo(BeAnExistingFile())
			},
			Entry("a blank command", command.Request{Command: " \t\n"}, hosterr.InvalidInput, "Command must contain between 1 and 32768 characters."),
			Entry("a command over 32768 UTF-16 units", command.Request{Command: "touch marker; #" + strings.Repeat("😀", 16377)}, hosterr.InvalidInput, "Command must contain between 1 and 32768 characters."),
			Entry("a negative timeout", command.Request{TimeoutMs: -1}, hosterr.InvalidInput, "timeoutMs must be a positive integer."),
			Entry("an output bound over 4 MiB", command.Request{MaxOutputBytes: command.MaxOutputBytes + 1}, hosterr.InvalidInput, "maxOutputBytes must be between 1 and 4194304."),
			Entry("a negative output bound", command.Request{MaxOutputBytes: -1}, hosterr.InvalidInput, "maxOutputBytes must be between 1 and 4194304."),
			Entry("an elapsed deadline", command.Request{Deadline: time.Now().Add(-time.Second)}, hosterr.DeadlineExceeded, "The run deadline elapsed."),
		)

		It("accepts a command of exactly 32768 UTF-16 units", func() {
			cmd := "touch marker; #" + strings.Repeat("😀", (32768-15)/2) + "x"
			Expect(len([]rune(cmd)) + strings.Count(cmd, "😀")).To(Equal(32768))
			run(r, cmd)
			Expect(filepath.Join(root, "marker")).To(BeAnExistingFile())
		})

		It("refuses a canceled context before spawning", func() {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, err := r.Run(ctx, command.Request{Command: "touch marker"})
			Expect(err).To(MatchError(command.ErrCanceled))
			Expect(message(err)).To(Equal("The run was canceled."))
			Expect(filepath.Join(root, "marker")).NotTo(BeAnExistingFile())
		})
	})

	Describe("cwd", func() {
		BeforeEach(func() {
			Expect(os.MkdirAll(filepath.Join(root, "sub", "deeper"), 0o755)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(root, "file.txt"), nil, 0o644)).To(Succeed())
			Expect(os.Symlink("sub", filepath.Join(root, "inner-link"))).To(Succeed())
			Expect(os.Symlink(filepath.Dir(root), filepath.Join(root, "escape"))).To(Succeed())
		})

		DescribeTable("runs inside the workspace",
			func(cwd, want string) {
				res, err := r.Run(context.Background(), command.Request{Command: "pwd -P", Cwd: cwd})
				Expect(err).NotTo(HaveOccurred())
				Expect(strings.TrimSpace(res.Stdout)).To(Equal(filepath.Join(root, want)))
			},
			Entry("the default", "", "."),
			Entry("the root", ".", "."),
			Entry("a subdirectory", "sub/deeper", "sub/deeper"),
			Entry("a dot segment", "./sub/.", "sub"),
			Entry("a symlink that stays inside", "inner-link", "sub"),
		)

		DescribeTable("rejects escapes and bad directories before spawning",
			func(cwd string, c hosterr.Code, msg string) {
				_, err := r.Run(context.Background(), command.Request{Command: "touch marker", Cwd: cwd})
				Expect(code(err)).To(Equal(c))
				if msg != "" {
					Expect(message(err)).To(Equal(msg))
				}
				Expect(message(err)).NotTo(ContainSubstring(root))
				Expect(filepath.Join(filepath.Dir(root), "marker")).NotTo(BeAnExistingFile())
			},
			Entry("the parent", "..", hosterr.PermissionDenied, "Workspace path escapes the configured root: '..'."),
			Entry("a traversal", "sub/../../x", hosterr.PermissionDenied, "Workspace path escapes the configured root: 'sub/../../x'."),
			Entry("an absolute path", "/tmp", hosterr.PermissionDenied, "Workspace paths must be relative."),
			Entry("a symlink leaving the root", "escape", hosterr.PermissionDenied, "Workspace symlink escapes the configured root: 'escape'."),
			Entry("a missing directory", "missing", hosterr.NotFound, ""),
			Entry("a file", "file.txt", hosterr.InvalidInput, "Command cwd must be a workspace directory."),
			Entry("a NUL byte", "sub\x00", hosterr.InvalidInput, "Workspace path contains a null byte."),
		)
	})

	Describe("process lifecycle", func() {
		pidFile := func() string { return filepath.Join(root, "pids") }

		It("times out, reports timed_out with a null exit code, and leaves no process behind", func() {
			res, err := r.Run(context.Background(), command.Request{Command: spawnSleepers + "sleep 30", TimeoutMs: 300})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Status).To(Equal(command.StatusTimedOut))
			Expect(res.ExitCode).To(BeNil())
			within(res.DurationMs, 5*time.Second)
			expectAllGone(readPIDs(pidFile()))
		})

		It("uses the earlier absolute deadline instead of the timeout", func() {
			res, err := r.Run(context.Background(), command.Request{Command: "sleep 30", TimeoutMs: 60000, Deadline: time.Now().Add(300 * time.Millisecond)})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Status).To(Equal(command.StatusTimedOut))
			within(res.DurationMs, 5*time.Second)
		})

		It("treats the context's deadline as a deadline, not a cancellation", func() {
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			res, err := r.Run(ctx, command.Request{Command: "sleep 30"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Status).To(Equal(command.StatusTimedOut))
		})

		It("escalates to SIGKILL after the grace when the group ignores SIGTERM", func() {
			res, err := r.Run(context.Background(), command.Request{Command: "trap '' TERM; " + spawnSleepers + "sleep 30", TimeoutMs: 200})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Status).To(Equal(command.StatusTimedOut))
			Expect(time.Duration(res.DurationMs) * time.Millisecond).To(BeNumerically(">=", 200*time.Millisecond+command.KillGrace-50*time.Millisecond))
			within(res.DurationMs, 6*time.Second)
			expectAllGone(readPIDs(pidFile()))
		})

		It("cancels through the context: status canceled, late writes never happen, nothing left", func() {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(150*time.Millisecond, cancel)
			res, err := r.Run(ctx, command.Request{Command: spawnSleepers + "(sleep 0.35; echo late > late.txt) & sleep 30"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Status).To(Equal(command.StatusCanceled))
			within(res.DurationMs, 5*time.Second)
			expectAllGone(readPIDs(pidFile()))
			time.Sleep(500 * time.Millisecond)
			Expect(filepath.Join(root, "late.txt")).NotTo(BeAnExistingFile())
		})

		It("terminates background processes that outlive a normal exit", func() {
			res := run(r, "sleep 30 >/dev/null 2>&1 & echo $! > pids; sleep 30 </dev/null >/dev/null 2>&1 & echo $! >> pids; exit 4")
			Expect(res.Status).To(Equal(command.StatusExited))
			Expect(res.ExitCode).To(Equal(exit(4)))
			within(res.DurationMs, 5*time.Second)
			expectAllGone(readPIDs(pidFile()))
		})

		It("finds survivors of a normal exit (the leftover check can fail)", func() {
			// A process that leaves the group (setsid) escapes the group kill;
			// proc.Alive sees it, so the checks above are not vacuous.
			if _, err := os.Stat("/usr/bin/setsid"); err != nil {
				Skip("no setsid to escape the process group")
			}
			run(r, "setsid sleep 30 >/dev/null 2>&1 & echo $! > pids; sleep 0.2")
			pids := readPIDs(pidFile())
			DeferCleanup(killAll, pids)
			Consistently(func() bool { return proc.Alive(pids[0]) }).WithTimeout(300 * time.Millisecond).Should(BeTrue())
		})

		It("reports completion only after the output pipes close, like the original", func() {
			res := run(r, "(sleep 0.3; printf late) & printf early")
			Expect(res.Stdout).To(Equal("earlylate"))
			Expect(time.Duration(res.DurationMs) * time.Millisecond).To(BeNumerically(">=", 250*time.Millisecond))
		})
	})
})

// spawnSleepers is a script prefix that starts two background sleeps
// holding the output pipes and one with its output redirected away, and
// records their PIDs in pids.
const spawnSleepers = `sleep 30 & echo $! > pids; sleep 30 >/dev/null 2>&1 & echo $! >> pids; (sleep 30; :) & echo $! >> pids; `
