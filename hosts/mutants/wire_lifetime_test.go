package mutants_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/internal/proc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The wire-level specs of the command mutants about the published dialect,
// process lifetime, deadlines, signal exits and spills (items 5, 6, 52,
// 53).
func init() {
	for name, spec := range lifetimeSpecs {
		specs[name] = spec
	}
}

// backgroundPID runs command, which writes one PID to p.txt, on h and
// returns that PID right after the answer; the process is killed when the
// spec ends.
func backgroundPID(h *host, args map[string]any) int {
	h.run(args)
	n, err := strconv.Atoi(strings.TrimSpace(h.read("p.txt")))
	Expect(err).NotTo(HaveOccurred(), "%s: the command wrote its child's PID", h)
	DeferCleanup(proc.Kill, n)
	return n
}

// withShell starts a reference or mutant host, like launch, whose
// environment also holds SHELL=shell, the user's login shell.
func withShell(mutant, shell string) *host {
	GinkgoT().Setenv("SHELL", shell)
	dir := GinkgoT().TempDir()
	h := &host{mutant: mutant, dir: dir, ws: filepath.Join(dir, "workspace"), st: filepath.Join(dir, "store")}
	Expect(os.Mkdir(h.ws, 0o755)).To(Succeed())
	exe, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	argv := []string{exe, "host", "serve", "reference"}
	if mutant != "" {
		argv = append(argv, "--mutant", mutant)
	}
	approve := func(context.Context, wire.ApprovalParams) (wire.ApprovalDecision, error) {
		return wire.ApprovalDecision{Approved: true, Scope: "once"}, nil
	}
	c, err := hostproc.Start(argv, hostproc.StartOptions{Dir: dir, CallTimeout: 20 * time.Second, Approver: approve, PassEnv: []string{"SHELL"}})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { _ = c.Close(5 * time.Second) })
	h.init, err = c.Initialize(context.Background(), baseParams(h.ws, h.st))
	Expect(err).NotTo(HaveOccurred(), "%s: %s", h, c.Stderr())
	h.client = c
	return h
}

var lifetimeSpecs = map[string]func(name string){
	"spawn-login-shell": func(name string) {
		posixOnly()
		if _, err := os.Stat("/bin/bash"); err != nil {
			Skip("the spec names /bin/bash as the login shell and it is not installed here")
		}
		if sh, _ := filepath.EvalSymlinks("/bin/sh"); sh == "/bin/bash" || filepath.Base(sh) == "bash" {
			Skip("/bin/sh is bash here, so the login shell cannot be told apart")
		}
		ref, mut := withShell("", "/bin/bash"), withShell(name, "/bin/bash")
		Expect(mut.init.CommandEnvironment.Command.Executable).To(Equal(ref.init.CommandEnvironment.Command.Executable), "both publish the same interpreter")
		probe := map[string]any{"command": "printf '%s\\n' \"${BASH_VERSION:+bash}\""}
		Expect(ref.run(probe)["stdout"]).NotTo(Equal("bash\n"), "the reference runs the published /bin/sh")
		Expect(mut.run(probe)["stdout"]).To(Equal("bash\n"), "the mutant runs the login shell")
	},
	"unbounded-stderr": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "head -c 400000 /dev/zero | tr '\\0' a >&2"}
		Expect(ref.run(run)["truncated"]).To(BeTrue(), "the reference bounds stderr")
		out := mut.run(run)
		Expect(out["truncated"]).To(BeFalse(), "the mutant keeps all of stderr")
		Expect(out["stderr"]).To(HaveLen(400000))
	},
	"spill-stdout-only": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "head -c 400000 /dev/zero | tr '\\0' a >&2"}
		r, _ := ref.ok("run_command", run)
		Expect(r.ArtifactRef).To(ContainSubstring(".stderr"), "the reference spills stderr")
		r, out := mut.ok("run_command", run)
		Expect(out["truncated"]).To(BeTrue())
		Expect(r.ArtifactRef).NotTo(ContainSubstring(".stderr"), "the mutant keeps no stderr spill")
	},
	"validate-skips-containment-gate": func(name string) {
		posixOnly()
		if _, err := exec.LookPath("npm"); err != nil {
			Skip("npm runs the declared script and is not installed here")
		}
		su := setup{
			files:  map[string]string{"package.json": `{"private": true, "scripts": {"test": "printf ran > validated.txt"}}`},
			params: func(p *wire.InitializeParams) { p.Containment = wire.ContainmentRequired },
		}
		ref, mut := both(name, su)
		run := map[string]any{"command": "printf ran > ran.txt"}
		ref.fails("run_command", run, "UNAVAILABLE")
		mut.fails("run_command", run, "UNAVAILABLE")
		validate := map[string]any{"checks": []string{"test"}}
		ref.result("validate_project", validate)
		mut.result("validate_project", validate)
		Expect(ref.exists("validated.txt")).To(BeFalse(), "the reference refuses the declared script before spawn")
		Expect(mut.exists("validated.txt")).To(BeTrue(), "the mutant ran the declared script uncontained")
	},
	"cwd-prefix-check": func(name string) {
		posixOnly()
		sibling := func(dir string) {
			Expect(os.MkdirAll(filepath.Join(dir, "workspace-sibling"), 0o755)).To(Succeed())
			Expect(os.Symlink(filepath.Join(dir, "workspace-sibling"), filepath.Join(dir, "workspace", "sib"))).To(Succeed())
		}
		ref, mut := both(name, setup{prepare: sibling})
		run := map[string]any{"command": "pwd", "cwd": "sib"}
		ref.fails("run_command", run, "PERMISSION_DENIED")
		Expect(mut.run(run)["stdout"]).To(HaveSuffix("workspace-sibling\n"), "the mutant runs the command beside the workspace")
	},
	"cwd-lexical-only": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{prepare: outsideLink})
		run := map[string]any{"command": "cat secret.txt", "cwd": "link"}
		ref.fails("run_command", run, "PERMISSION_DENIED")
		Expect(mut.run(run)["stdout"]).To(Equal("secret\n"), "the mutant follows the symlink out")
	},
	"publish-login-shell": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		Expect(ref.init.CommandEnvironment.Command.Shell).To(Equal("sh"))
		Expect(mut.init.CommandEnvironment.Command.Shell).To(Equal("zsh"), "the mutant publishes zsh")
		Expect(mut.init.CommandEnvironment.Command.Executable).To(Equal(ref.init.CommandEnvironment.Command.Executable), "the mutant publishes the executable it spawns")
		probe := map[string]any{"command": "printf '%s\\n' \"${ZSH_VERSION-none}\""}
		Expect(ref.run(probe)["stdout"]).To(Equal("none\n"))
		Expect(mut.run(probe)["stdout"]).To(Equal("none\n"), "zsh does not run the mutant's commands")
	},
	"term-without-kill": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "sh -c 'trap \"\" TERM; sleep 5' >/dev/null 2>&1 & echo $! > p.txt; wait", "timeoutMs": 300}
		refPID, mutPID := backgroundPID(ref, run), backgroundPID(mut, run)
		Expect(proc.Alive(refPID)).To(BeFalse(), "the reference escalates to SIGKILL before it answers")
		Expect(proc.Alive(mutPID)).To(BeTrue(), "the mutant's child that ignores SIGTERM runs on after the answer")
	},
	"timeout-kills-child-only": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "sleep 5 >/dev/null 2>&1 & echo $! > p.txt; sleep 5", "timeoutMs": 300}
		refPID, mutPID := backgroundPID(ref, run), backgroundPID(mut, run)
		Expect(proc.Alive(refPID)).To(BeFalse(), "the reference ends the process group at the timeout")
		Expect(proc.Alive(mutPID)).To(BeTrue(), "the mutant killed only the interpreter")
	},
	"ignore-call-deadline": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		took := func(h *host) (time.Duration, map[string]any) {
			p := params("run_command", map[string]any{"command": "sleep 3"})
			p.TimeoutMs = 700
			start := time.Now()
			r, err := h.client.Execute(context.Background(), p)
			Expect(err).NotTo(HaveOccurred(), "%s answers", h)
			var out map[string]any
			Expect(json.Unmarshal([]byte(r.Content), &out)).To(Succeed())
			return time.Since(start), out
		}
		d, out := took(ref)
		Expect(d).To(BeNumerically("<", 2*time.Second), "the call's deadline ends the reference's command")
		Expect(out["timedOut"]).To(BeTrue())
		d, _ = took(mut)
		Expect(d).To(BeNumerically(">=", 3*time.Second), "the mutant runs the command past the call's deadline")
	},
	"signal-exit-zero": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "kill -KILL $$"}
		Expect(ref.run(run)["exitCode"]).NotTo(BeEquivalentTo(0), "the reference reports a signal exit as non-zero")
		Expect(mut.run(run)["exitCode"]).To(BeEquivalentTo(0), "the mutant reports it as exit code 0")
	},
	"merge-spill": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "seq 1 100000 | tee /dev/stderr | tr 0-9 a-j"}
		files := func(h *host) []string {
			r, out := h.ok("run_command", run)
			Expect(out["truncated"]).To(BeTrue())
			return strings.Split(strings.TrimPrefix(r.ArtifactRef, "conform-spill://"), ",")
		}
		Expect(files(ref)).To(HaveLen(2), "the reference spills each stream to a file of its own")
		got := files(mut)
		Expect(got).To(HaveLen(1), "the mutant spills both streams to one file")
		b, err := os.ReadFile(filepath.Join(mut.st, "spill", got[0]))
		Expect(err).NotTo(HaveOccurred())
		Expect(len(b)).To(Equal(2*588895), "the one file holds both streams")
		var digits strings.Builder
		for i := 1; i <= 100000; i++ {
			digits.WriteString(strconv.Itoa(i) + "\n")
		}
		letters := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return 'a' + r - '0'
			}
			return r
		}, digits.String())
		Expect(strings.Contains(string(b), digits.String())).To(BeFalse(), "the mutant's file holds no complete stderr")
		Expect(strings.Contains(string(b), letters)).To(BeFalse(), "the mutant's file holds no complete stdout")
	},
}
