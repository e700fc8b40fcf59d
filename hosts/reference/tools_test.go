package reference_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/proc"
	"github.com/galaxy-stack/conform/internal/suite"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("workspace tools", func() {
	It("create, read, edit and refuse a stale edit, with typed write evidence", func() {
		e := start(setup{})
		r, out := e.ok("write_file", create("dir with space/é;$(x).txt", "one\n"))
		Expect(r.Trust).To(Equal("trusted"))
		Expect(r.Effects.Writes).To(ContainElement(HaveField("Path", "dir with space/é;$(x).txt")))
		Expect(r.Effects.StateVersion).NotTo(BeEmpty())
		Expect(out["afterContentSha256"]).To(HaveLen(64))
		for _, w := range r.Effects.Writes {
			if w.Path == "dir with space/é;$(x).txt" {
				Expect(w.BeforeKind).To(Equal("missing"))
				Expect(w.BeforeHash).To(BeNil())
				Expect(*w.AfterHash).To(Equal("sha256:" + out["afterContentSha256"].(string)))
			}
		}
		_, read := e.ok("read_file", map[string]any{"path": "dir with space/é;$(x).txt"})
		Expect(read["content"]).To(Equal("one\n"))
		hash := read["contentHash"].(string)
		r, _ = e.ok("edit_file", map[string]any{"path": "dir with space/é;$(x).txt", "oldText": "one", "newText": "two",
			"precondition": map[string]any{"kind": "matches_sha256", "contentSha256": "sha256:" + strings.ToUpper(hash)}})
		Expect(r.Effects.Writes).To(HaveLen(1))
		info, err := os.Stat(filepath.Join(e.ws, "dir with space/é;$(x).txt"))
		Expect(err).NotTo(HaveOccurred())
		before := info
		e.fails("edit_file", map[string]any{"path": "dir with space/é;$(x).txt", "oldText": "two", "newText": "three",
			"precondition": map[string]any{"kind": "matches_sha256", "contentSha256": hash}}, "PRECONDITION_FAILED")
		info, err = os.Stat(filepath.Join(e.ws, "dir with space/é;$(x).txt"))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.SameFile(before, info)).To(BeTrue(), "a failed precondition keeps the inode")
	})

	It("refuse a symlink escape", func() {
		e := start(setup{})
		outside := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644)).To(Succeed())
		Expect(os.Symlink(outside, filepath.Join(e.ws, "link"))).To(Succeed())
		e.fails("read_file", map[string]any{"path": "link/secret"}, "PERMISSION_DENIED")
		e.fails("write_file", create("link/new", "x"), "PERMISSION_DENIED")
		_, err := os.Lstat(filepath.Join(outside, "new"))
		Expect(err).To(HaveOccurred())
	})

	It("list, glob, grep and detect with inspection evidence", func() {
		e := start(setup{files: map[string]string{"package.json": `{"scripts":{"test":"node --test"}}`, "src/a.ts": "export const needle = 1;\n"}})
		r, out := e.ok("list_files", map[string]any{"path": "."})
		Expect(r.Effects.InspectedPaths).To(Equal([]string{"."}))
		Expect(out["entries"]).To(HaveLen(2))
		_, out = e.ok("glob_files", map[string]any{"pattern": "**/*.ts"})
		Expect(out["matches"]).To(Equal([]any{"src/a.ts"}))
		r, out = e.ok("search_text", map[string]any{"query": "needle"})
		Expect(r.Effects.InspectedPaths).To(Equal([]string{"src/a.ts"}))
		Expect(out["provenance"]).To(HaveKeyWithValue("trust", "untrusted_workspace"))
		_, out = e.ok("detect_project", map[string]any{"path": "."})
		Expect(out["languages"]).To(ContainElement("TypeScript"))
		Expect(out["packageManager"]).To(Equal("npm"))
	})
})

var _ = Describe("catalog.search and task.checkpoint", func() {
	It("search attests the active hash; checkpoint attests plan and a stable state version", func() {
		e := start(setup{})
		ts, err := e.client.ToolSet(context.Background())
		Expect(err).NotTo(HaveOccurred())
		r, out := e.ok("search_tools", map[string]any{"query": "git", "category": "git"})
		Expect(r.Effects.StateVersion).To(Equal(ts.SnapshotHash))
		Expect(out["activated"]).To(ContainElement("git.exec"))
		r, _ = e.ok("update_checkpoint", map[string]any{"action": "update", "goal": "g", "progress": "p", "nextStep": " n ", "decisions": []string{"d"}})
		Expect(r.Effects.Plan.Completed).To(Equal([]string{"p"}))
		Expect(*r.Effects.Plan.InProgress).To(Equal("n"))
		Expect(r.Effects.NextAction).To(Equal(" n "))
		read, _ := e.ok("update_checkpoint", map[string]any{"action": "read"})
		Expect(read.Effects.StateVersion).To(Equal(r.Effects.StateVersion))
	})
})

// pidsIn reads the process IDs a command wrote to a workspace file; nil
// while it is missing or holds anything else.
func pidsIn(path string) []int {
	pids, _ := proc.ReadPIDs(path)
	return pids
}

func trusted(p *wire.InitializeParams) { p.ApprovalProfile = "trusted-workspace" }

var _ = Describe("command.run", func() {
	BeforeEach(func() {
		if runtime.GOOS == "windows" {
			Skip("these specs script /bin/sh; the Windows cmd dialect has its own probes")
		}
	})

	It("reports changed paths as typed writes and generated trees as derived mutations", func() {
		e := start(setup{params: trusted})
		r, out := e.ok("run_command", map[string]any{"command": "printf 'hi\\n' > out.txt && mkdir -p node_modules/x && echo 1 > node_modules/x/i.js && echo err >&2 && exit 3"})
		Expect(r.Trust).To(Equal("external"))
		Expect(out["exitCode"]).To(BeNumerically("==", 3))
		Expect(out["stdout"]).To(Equal(""))
		Expect(out["stderr"]).To(Equal("err\n"))
		Expect(out["derivedMutations"]).To(HaveKey("paths"))
		var paths []string
		for _, w := range r.Effects.Writes {
			paths = append(paths, w.Path)
		}
		Expect(paths).To(Equal([]string{"out.txt"}), "node_modules never becomes write evidence")
	})

	It("publishes the interpreter it spawns", func() {
		e := start(setup{params: trusted})
		_, out := e.ok("run_command", map[string]any{"command": "echo \"$0\""})
		Expect(strings.TrimSpace(out["stdout"].(string))).To(Equal(e.init.CommandEnvironment.Command.Executable))
	})

	It("stops on $/cancelRequest, leaving no process behind, and stays usable", func() {
		// Uncontained, so that the PIDs the command sees are the host's.
		e := start(setup{params: func(p *wire.InitializeParams) { trusted(p); p.ForbidContainmentBackends = true }})
		ctx, cancel := context.WithCancel(context.Background())
		raw, _ := json.Marshal(map[string]any{"command": "echo $$ > pids.txt; sleep 30 & echo $! >> pids.txt; wait"})
		done := make(chan error, 1)
		go func() {
			_, err := e.client.Execute(ctx, wire.ExecuteParams{CallID: "long", ModelName: "run_command", Arguments: raw, TimeoutMs: 60000,
				Context: wire.RunContext{RunID: "run-1", TaskID: "task-1", Mode: "auto"}})
			done <- err
		}()
		Eventually(func() []int { return pidsIn(filepath.Join(e.ws, "pids.txt")) }, 10*time.Second).Should(HaveLen(2))
		pids := pidsIn(filepath.Join(e.ws, "pids.txt"))
		cancel()
		Eventually(done).Should(Receive(MatchError(context.Canceled)))
		for _, pid := range pids {
			Eventually(func() bool { return proc.Alive(pid) }, 5*time.Second).Should(BeFalse(), "process %d is gone", pid)
		}
		e.ok("list_files", map[string]any{"path": "."})
	})

	It("times out at the call's own limit with the group killed", func() {
		e := start(setup{params: trusted})
		r, out := e.ok("run_command", map[string]any{"command": "sleep 30", "timeoutMs": 300})
		Expect(out["timedOut"]).To(BeTrue())
		Expect(r.Summary).To(ContainSubstring("timed_out"))
	})

	It("refuses to spawn when containment is required and unavailable", func() {
		e := start(setup{params: func(p *wire.InitializeParams) {
			p.Containment = wire.ContainmentRequired
			p.ForbidContainmentBackends = true
			p.ApprovalProfile = "trusted-workspace"
		}})
		r := e.fails("run_command", map[string]any{"command": "touch spawned"}, "UNAVAILABLE")
		Expect(r.Content).To(ContainSubstring("Required command containment is unavailable"))
		Expect(e.exists("spawned")).To(BeFalse())
	})
})

func git(dir string, args ...string) {
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), string(out))
}

var _ = Describe("git.exec", func() {
	It("shows status and a hashed complete diff, with paths as data", func() {
		e := start(setup{files: map[string]string{"a.txt": "one\n", "-n;$(x) b.txt": "odd\n"}})
		git(e.ws, "init", "-q")
		git(e.ws, "add", ".")
		git(e.ws, "commit", "-q", "-m", "base")
		suite.WriteFiles(e.ws, map[string]string{"a.txt": "two\n", "-n;$(x) b.txt": "odder\n", "new.txt": "n\n"})
		_, out := e.ok("git_operation", map[string]any{"action": "status"})
		Expect(out["stdout"]).To(ContainSubstring("a.txt"))
		r, out := e.ok("git_operation", map[string]any{"action": "diff", "paths": []string{"-n;$(x) b.txt"}})
		Expect(out["stdout"]).To(ContainSubstring("+odder"))
		Expect(out["stdout"]).NotTo(ContainSubstring("a.txt"))
		Expect(r.Effects.DiffReview).NotTo(BeNil())
		Expect(r.Effects.InspectedPaths).To(Equal([]string{"-n;$(x) b.txt"}))
		r, out = e.ok("git_operation", map[string]any{"action": "diff"})
		Expect(out["stdout"]).To(And(ContainSubstring("[working-tree]"), ContainSubstring("[untracked]"), ContainSubstring("+n")))
		Expect(r.Effects.DiffReview.DiffHash).To(HaveLen(64))
		_, out = e.ok("git_operation", map[string]any{"action": "log", "limit": 1})
		Expect(out["stdout"]).To(ContainSubstring("base"))
	})
})

var _ = Describe("project.validate", func() {
	It("runs declared scripts after approval, with stable validation IDs", func() {
		if _, err := exec.LookPath("npm"); err != nil {
			Skip("npm is not installed")
		}
		asked := 0
		e := start(setup{
			files: map[string]string{"package.json": `{"scripts":{"test":"echo ok > ran.txt"}}`},
			approver: func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
				asked++
				return wire.ApprovalDecision{Approved: true, Scope: "once"}, nil
			},
		})
		r, out := e.ok("validate_project", map[string]any{"checks": []string{"test", "lint"}})
		Expect(asked).To(Equal(1))
		Expect(out["passed"]).To(BeTrue())
		Expect(r.Effects.Validations).To(ConsistOf(
			port.ValidationEntry{ID: "project.validate:test:.", Detail: r.Effects.Validations[0].Detail, Scope: "workspace", Status: "passed"},
			port.ValidationEntry{ID: "project.validate:lint:.", Detail: "lint: No 'lint' script was detected.", Scope: "workspace", Status: "not_run"},
		))
		Expect(r.Effects.Writes).To(ContainElement(HaveField("Path", "ran.txt")))
	})

	It("does not run without approval when containment is not verified", func() {
		e := start(setup{files: map[string]string{"package.json": `{"scripts":{"test":"echo ok > ran.txt"}}`},
			params: func(p *wire.InitializeParams) {
				p.ApprovalProfile = "trusted-workspace"
				p.ForbidContainmentBackends = true
			}})
		r, err := e.call("validate_project", map[string]any{"checks": []string{"test"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeFalse())
		Expect(r.Effects.Approval).To(Equal("denied"))
		Expect(e.exists("ran.txt")).To(BeFalse())
		Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeFalse())
	})
})
