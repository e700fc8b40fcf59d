package mutants_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/internal/proc"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/hosts/mutants"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Every mutant has a spec here in which the reference host and the mutant,
// each a real process, answer the same requests differently on exactly the
// guarantee the mutant breaks: the reference's answer first, then the
// mutant's.
var _ = Describe("each mutant against the reference host", func() {
	for _, m := range mutants.All() {
		spec, ok := specs[m.Name]
		if !ok {
			continue // the registry spec reports the gap
		}
		It(m.Name+": "+m.Description, func() { spec(m.Name) })
	}
})

// addSpecs adds the wire-level specs of more mutants, kept in a file of
// their own, to specs; a name given twice is a mistake in the tests.
func addSpecs(more map[string]func(name string)) bool {
	for name, spec := range more {
		if _, dup := specs[name]; dup {
			panic("two wire-level specs for mutant " + name)
		}
		specs[name] = spec
	}
	return true
}

// specs holds the wire-level spec of every mutant, keyed by its name.
var specs = map[string]func(name string){
	// Workspace.
	"symlink-escape": func(name string) {
		ref, mut := both(name, setup{prepare: outsideLink})
		ref.fails("read_file", map[string]any{"path": "link/secret.txt"}, "PERMISSION_DENIED")
		_, out := mut.ok("read_file", map[string]any{"path": "link/secret.txt"})
		Expect(out["content"]).To(Equal("secret\n"))
	},
	"dotdot-escape": func(name string) {
		ref, mut := both(name, setup{prepare: outsideLink})
		r := ref.result("read_file", map[string]any{"path": "../outside/secret.txt"})
		Expect(r.OK).To(BeFalse())
		Expect(r.Content).NotTo(ContainSubstring("secret\\n"))
		_, out := mut.ok("read_file", map[string]any{"path": "../outside/secret.txt"})
		Expect(out["content"]).To(Equal("secret\n"))
	},
	"overwrite-existing": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "one\n"}})
		ref.fails("write_file", create("a.txt", "two\n"), "PRECONDITION_FAILED")
		Expect(ref.read("a.txt")).To(Equal("one\n"))
		mut.ok("write_file", create("a.txt", "two\n"))
		Expect(mut.read("a.txt")).To(Equal("two\n"))
	},
	"replace-inode-on-failure": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "one\n"}})
		stale := map[string]any{"path": "a.txt", "oldText": "one", "newText": "uno",
			"precondition": map[string]any{"kind": "matches_sha256", "contentSha256": strings.Repeat("0", 64)}}
		for _, h := range []*host{ref, mut} {
			before := h.stat("a.txt")
			h.fails("edit_file", stale, "PRECONDITION_FAILED")
			Expect(h.read("a.txt")).To(Equal("one\n"), "%s keeps the bytes", h)
			Expect(os.SameFile(before, h.stat("a.txt"))).To(Equal(h == ref), "%s: same inode", h)
		}
	},
	"lossy-utf8": func(name string) {
		bad := "caf\xff hello\n"
		ref, mut := both(name, setup{files: map[string]string{"bad.txt": bad}})
		edit := map[string]any{"path": "bad.txt", "oldText": "hello", "newText": "world"}
		ref.fails("read_file", map[string]any{"path": "bad.txt"}, "INVALID_INPUT")
		ref.fails("edit_file", edit, "INVALID_INPUT")
		Expect(ref.read("bad.txt")).To(Equal(bad))
		_, out := mut.ok("read_file", map[string]any{"path": "bad.txt"})
		Expect(out["content"]).To(Equal("caf\uFFFD hello\n"))
		_, _ = mut.call("edit_file", edit)
		Expect(mut.read("bad.txt")).To(Equal("caf\uFFFD world\n"), "the invalid byte was rewritten")
	},
	"ignore-page-limit": func(name string) {
		files := map[string]string{"a.txt": "a", "b.txt": "b", "c.txt": "c", "d.txt": "d", "e.txt": "e"}
		ref, mut := both(name, setup{files: files})
		list := map[string]any{"path": ".", "limit": 2}
		_, out := ref.ok("list_files", list)
		Expect(out["entries"]).To(HaveLen(2))
		Expect(out["truncated"]).To(BeTrue())
		Expect(out["nextCursor"]).NotTo(BeEmpty())
		_, out = mut.ok("list_files", list)
		Expect(out["entries"]).To(HaveLen(5))
		Expect(out["truncated"]).To(BeFalse())
	},
	"metadata-fingerprint": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "aaaa\n"}})
		for _, h := range []*host{ref, mut} {
			ctx := context.Background()
			st, err := h.client.CaptureFingerprint(ctx, []wire.ActiveFile{}, nil)
			Expect(err).NotTo(HaveOccurred())
			mtime := h.stat("a.txt").ModTime()
			Expect(os.WriteFile(h.path("a.txt"), []byte("bbbb\n"), 0o644)).To(Succeed())
			Expect(os.Chtimes(h.path("a.txt"), mtime, mtime)).To(Succeed())
			_, matches, err := h.client.VerifyFingerprint(ctx, st)
			Expect(err).NotTo(HaveOccurred())
			Expect(matches).To(Equal(h == mut), "%s: a same-size edit with the old mtime matches", h)
		}
	},
	"incomplete-scan-as-complete": func(name string) {
		deep := strings.Repeat("d/", 22) + "main.go"
		ref, mut := both(name, setup{files: map[string]string{"go.mod": "module x\n", deep: "package main\n"}})
		for _, h := range []*host{ref, mut} {
			_, out := h.ok("detect_project", map[string]any{"path": "."})
			scan := out["scan"].(map[string]any)
			Expect(scan["complete"]).To(Equal(h == mut), "%s: scan.complete", h)
			if h == ref {
				Expect(out["warnings"]).To(ContainElement(ContainSubstring("maximum depth")))
			}
		}
	},

	// Commands.
	"other-interpreter": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			out := h.run(map[string]any{"command": "echo $0"})
			published := h.init.CommandEnvironment.Command.Executable
			if h == ref {
				Expect(out["stdout"]).To(Equal(published+"\n"), "the reference spawns what it publishes")
			} else {
				Expect(out["stdout"]).To(Equal(command.OtherInterpreterPath + "\n"))
				Expect(out["stdout"]).NotTo(Equal(published + "\n"))
			}
		}
	},
	"implicit-shell": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		cmd := map[string]any{"command": "printf '%s|' 'a  b' c"}
		Expect(ref.run(cmd)["stdout"]).To(Equal("a  b|c|"))
		Expect(mut.run(cmd)["stdout"]).NotTo(Equal("a  b|c|"), "the command was parsed twice")
	},
	"publish-other-environment": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		env, err := command.DetectEnvironment()
		Expect(err).NotTo(HaveOccurred())
		for _, h := range []*host{ref, mut} {
			published := h.init.CommandEnvironment.Command.Executable
			Expect(published == env.Command.Executable).To(Equal(h == ref), "%s publishes %q", h, published)
			out := h.run(map[string]any{"command": "echo $0"})
			Expect(out["stdout"]).To(Equal(env.Command.Executable+"\n"), "%s spawns the detected interpreter", h)
		}
	},
	"cwd-escape": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{prepare: outsideLink})
		run := map[string]any{"command": "cat secret.txt", "cwd": "link"}
		ref.fails("run_command", run, "PERMISSION_DENIED")
		Expect(mut.run(run)["stdout"]).To(Equal("secret\n"))
	},
	"ignore-call-timeout": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "sleep 2", "timeoutMs": 300}
		out := ref.run(run)
		Expect(out["timedOut"]).To(BeTrue())
		out = mut.run(run)
		Expect(out["timedOut"]).To(BeFalse())
		Expect(out["exitCode"]).To(BeEquivalentTo(0))
	},
	"ignore-cancellation": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, h := range []*host{ref, mut} {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(400*time.Millisecond, cancel)
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = h.client.Execute(ctx, params("run_command", map[string]any{"command": "sleep 1.5; echo done > finished.txt"}))
			}()
		}
		wg.Wait()
		for _, err := range errs {
			Expect(errors.Is(err, context.Canceled)).To(BeTrue(), "the harness canceled the call: %v", err)
		}
		Eventually(func() bool { return mut.exists("finished.txt") }, 6*time.Second, 50*time.Millisecond).Should(BeTrue())
		Consistently(func() bool { return ref.exists("finished.txt") }, 500*time.Millisecond, 50*time.Millisecond).Should(BeFalse())
	},
	"leave-process-group": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "sleep 30 >/dev/null 2>&1 & echo $!"}
		pid := func(h *host) int {
			n, err := strconv.Atoi(strings.TrimSpace(h.run(run)["stdout"].(string)))
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(proc.Kill, n)
			return n
		}
		refPID, mutPID := pid(ref), pid(mut)
		Expect(proc.Alive(refPID)).To(BeFalse(), "the reference leaves no process behind")
		Expect(proc.Alive(mutPID)).To(BeTrue(), "the mutant left the background process running")
	},
	"unbounded-output": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "head -c 400000 /dev/zero | tr '\\0' a"}
		out := ref.run(run)
		Expect(out["truncated"]).To(BeTrue())
		Expect(len(out["stdout"].(string))).To(BeNumerically("<=", command.DefaultMaxOutputBytes))
		out = mut.run(run)
		Expect(out["truncated"]).To(BeFalse())
		Expect(out["stdout"]).To(HaveLen(400000))
	},
	"merge-command-streams": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "echo out; echo err >&2"}
		out := ref.run(run)
		Expect(out["stdout"]).To(Equal("out\n"))
		Expect(out["stderr"]).To(Equal("err\n"))
		out = mut.run(run)
		Expect(out["stdout"]).To(Equal("out\nerr\n"))
		Expect(out["stderr"]).To(BeEmpty())
	},
	"drop-spill": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "head -c 400000 /dev/zero | tr '\\0' a"}
		r, out := ref.ok("run_command", run)
		Expect(out["truncated"]).To(BeTrue())
		Expect(r.ArtifactRef).To(HavePrefix("conform-spill://"))
		r, out = mut.ok("run_command", run)
		Expect(out["truncated"]).To(BeTrue())
		Expect(r.ArtifactRef).To(BeEmpty())
	},
	"stdin-open": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "cat; echo end", "timeoutMs": 1500}
		out := ref.run(run)
		Expect(out["timedOut"]).To(BeFalse())
		Expect(out["stdout"]).To(Equal("end\n"))
		out = mut.run(run)
		Expect(out["timedOut"]).To(BeTrue(), "cat waited on the open stdin")
	},
	"mask-nonzero-exit": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "exit 3"}
		Expect(ref.run(run)["exitCode"]).To(BeEquivalentTo(3))
		Expect(mut.run(run)["exitCode"]).To(BeEquivalentTo(0))
	},
	"spawn-without-containment": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{params: func(p *wire.InitializeParams) { p.Containment = wire.ContainmentRequired }})
		run := map[string]any{"command": "echo ran > ran.txt"}
		ref.fails("run_command", run, "UNAVAILABLE")
		Expect(ref.exists("ran.txt")).To(BeFalse())
		mut.run(run)
		Expect(mut.exists("ran.txt")).To(BeTrue())
	},
	"sandbox-label-best-effort": func(name string) {
		ref, mut := both(name, setup{})
		Expect(ref.init.Containment.Verified).To(BeFalse())
		Expect(ref.init.Containment.Active).To(BeFalse())
		Expect(ref.init.Containment.State).To(Equal("unavailable"))
		Expect(mut.init.Containment.Verified).To(BeTrue())
		Expect(mut.init.Containment.Active).To(BeTrue())
	},

	// Tool executor.
	"skip-argument-validation": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"}})
		args := map[string]any{"path": "a.txt", "bogus": 1}
		ref.fails("read_file", args, "INVALID_TOOL_ARGUMENTS")
		mut.ok("read_file", args)
	},
	"skip-output-validation": func(name string) {
		ref, mut := both(name, setup{params: brokenListCatalog})
		_, err := ref.call("list_files", map[string]any{"path": "."})
		Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(), "%v", err)
		mut.ok("list_files", map[string]any{"path": "."})
	},
	"wrong-canonical-id": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"}})
		r, _ := ref.ok("read_file", map[string]any{"path": "a.txt"})
		Expect(r.CanonicalToolID).To(Equal("workspace.read"))
		r, _ = mut.ok("read_file", map[string]any{"path": "a.txt"})
		Expect(r.CanonicalToolID).To(Equal("read_file"))
	},
	"ignore-mode": func(name string) {
		ref, mut := both(name, setup{params: func(p *wire.InitializeParams) { p.Mode = "review_only" }})
		for _, h := range []*host{ref, mut} {
			ts, err := h.client.ToolSet(context.Background())
			Expect(err).NotTo(HaveOccurred())
			Expect(ts.CanonicalToolIDs).To(HaveKey("read_file"))
			if h == ref {
				Expect(ts.CanonicalToolIDs).NotTo(HaveKey("write_file"))
			} else {
				Expect(ts.CanonicalToolIDs).To(HaveKey("write_file"))
			}
		}
		ref.fails("write_file", create("a.txt", "x"), "UNKNOWN_TOOL")
		Expect(ref.exists("a.txt")).To(BeFalse())
	},
	"execute-before-approval": func(name string) {
		ref, mut := both(name, setup{deny: true, params: func(p *wire.InitializeParams) { p.ApprovalProfile = "strict" }})
		for _, h := range []*host{ref, mut} {
			r := h.fails("write_file", create("a.txt", "x"), "DENIED_BY_HOST")
			Expect(r.Effects.Approval).To(Equal("denied"))
			Expect(h.exists("a.txt")).To(Equal(h == mut), "%s wrote before the denial", h)
		}
	},
	"timed-validation-ids": func(name string) {
		posixOnly()
		pkg := `{"name":"x","version":"1.0.0","scripts":{"test":"true"}}`
		ref, mut := both(name, setup{files: map[string]string{"package.json": pkg}})
		validate := map[string]any{"checks": []string{"test"}}
		r := ref.result("validate_project", validate)
		Expect(r.Effects).NotTo(BeNil(), "%s", r.Content)
		Expect(r.Effects.Validations).To(HaveLen(1))
		Expect(r.Effects.Validations[0].ID).To(Equal("project.validate:test:."))
		m := mut.result("validate_project", validate)
		Expect(m.Effects).NotTo(BeNil(), "%s", m.Content)
		Expect(m.Effects.Validations).To(HaveLen(1))
		Expect(m.Effects.Validations[0].ID).To(HavePrefix("project.validate:test:.@"))
	},
	"validate-without-approval": func(name string) {
		posixOnly()
		pkg := `{"name":"x","version":"1.0.0","scripts":{"test":"echo tested > tested.txt"}}`
		ref, mut := both(name, setup{deny: true, files: map[string]string{"package.json": pkg},
			params: func(p *wire.InitializeParams) { p.ApprovalProfile = "trusted-workspace" }})
		validate := map[string]any{"checks": []string{"test"}}
		r := ref.result("validate_project", validate)
		Expect(r.OK).To(BeFalse())
		Expect(r.Effects.Approval).To(Equal("denied"))
		Expect(ref.asked()).To(Equal(1), "the unverified script needed approval")
		r = mut.result("validate_project", validate)
		Expect(mut.asked()).To(BeZero(), "the mutant never asked")
		Expect(r.Effects == nil || r.Effects.Approval != "denied").To(BeTrue(), "%s", r.Content)
	},
	"ignore-idempotency-key": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			p := params("write_file", create("a.txt", "one"))
			first := h.send(p)
			Expect(first.OK).To(BeTrue())
			p.CallID += "-again"
			again := h.send(p)
			Expect(again.OK).To(Equal(h == ref), "%s: the same key answers the first result: %s", h, again.Content)
		}
	},
	"forge-write-evidence": func(name string) {
		ref, mut := both(name, setup{})
		write := create("node_modules/pkg/index.js", "x\n")
		_, err := ref.call("write_file", write)
		Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(), "the snapshots show no durable write: %v", err)
		r, _ := mut.ok("write_file", write)
		Expect(writePaths(r)).To(ContainElement("node_modules/pkg/index.js"))
	},
	"derived-as-write": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "mkdir -p node_modules/x && echo y > node_modules/x/i.js"}
		r, out := ref.ok("run_command", run)
		Expect(out["derivedMutations"]).NotTo(BeNil())
		Expect(writePaths(r)).NotTo(ContainElement(HavePrefix("node_modules")))
		r, _ = mut.ok("run_command", run)
		Expect(writePaths(r)).To(ContainElement("node_modules/x/i.js"))
		for _, w := range r.Effects.Writes {
			if w.Path == "node_modules/x/i.js" {
				Expect(w.AfterHash).NotTo(BeNil())
				Expect(*w.AfterHash).NotTo(Equal(sha256Of("y\n")), "a metadata fingerprint, not the content hash")
			}
		}
	},
	"failed-result-effects": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "one\n"}})
		r := ref.fails("write_file", create("a.txt", "two\n"), "PRECONDITION_FAILED")
		Expect(writePaths(r)).To(BeEmpty())
		r = mut.fails("write_file", create("a.txt", "two\n"), "PRECONDITION_FAILED")
		Expect(writePaths(r)).To(ContainElement("a.txt"))
	},
	"git-paths-as-options": func(name string) {
		git := gitOrSkip()
		ref, mut := both(name, setup{prepare: func(dir string) { gitInit(git, filepath.Join(dir, "workspace")) }})
		status := map[string]any{"action": "status", "paths": []string{"--branch"}}
		_, out := ref.ok("git_operation", status)
		Expect(out["stdout"]).NotTo(ContainSubstring("##"), "--branch is a path to the reference")
		_, out = mut.ok("git_operation", status)
		Expect(out["stdout"]).To(ContainSubstring("##"), "--branch became an option")
	},
	"research-private-hosts": func(name string) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte("served from the loopback interface\n"))
		}))
		defer srv.Close()
		ref, mut := both(name, setup{params: func(p *wire.InitializeParams) { p.ToolProfile = wire.ToolProfileFullContract }})
		ref.fails("fetch_url", map[string]any{"url": srv.URL}, "INVALID_INPUT")
		_, out := mut.ok("fetch_url", map[string]any{"url": srv.URL})
		Expect(out["content"]).To(ContainSubstring("served from the loopback interface"))
	},
	"diff-review-when-truncated": func(name string) {
		git := gitOrSkip()
		big := strings.Repeat("a line of the big untracked file\n", 8000)
		ref, mut := both(name, setup{files: map[string]string{"big.txt": big},
			prepare: func(dir string) { gitInit(git, filepath.Join(dir, "workspace")) }})
		for _, h := range []*host{ref, mut} {
			r, out := h.ok("git_operation", map[string]any{"action": "diff"})
			Expect(out["truncated"]).To(BeTrue())
			Expect(r.Effects.DiffReview != nil).To(Equal(h == mut), "%s attests diff review", h)
		}
	},

	// Stores and trace.
	"store-ack-without-persist": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			put(h, "r", wire.KindFinalReport, `{"runId":"r"}`)
			doc, err := h.fresh().client.StoreGet(context.Background(), wire.StoreGetParams{RunID: "r", Kind: wire.KindFinalReport})
			Expect(err).NotTo(HaveOccurred())
			Expect(doc == nil).To(Equal(h == mut), "%s: the acknowledged document is lost", h)
		}
	},
	"trace-flush-not-durable": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			appendFlushed(h, 1, 2)
			evs, err := h.fresh().client.TraceList(context.Background(), "run-1")
			Expect(err).NotTo(HaveOccurred())
			if h == ref {
				Expect(evs).To(HaveLen(2))
			} else {
				Expect(evs).To(BeEmpty())
			}
		}
	},
	"lose-task-checkpoint": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			h.ok("update_checkpoint", map[string]any{"action": "update", "goal": "Ship it", "progress": "wrote a.txt", "nextStep": "validate"})
			_, out := h.fresh().ok("update_checkpoint", map[string]any{"action": "read"})
			b, _ := json.Marshal(out)
			if h == ref {
				Expect(string(b)).To(ContainSubstring(`"goal":"Ship it"`))
			} else {
				Expect(string(b)).NotTo(ContainSubstring("Ship it"))
			}
		}
	},

	// Batch stop policy.
	"failure-as-unknown-outcome": func(name string) {
		ref, mut := both(name, setup{})
		ref.fails("read_file", map[string]any{"path": "missing.txt"}, "NOT_FOUND")
		_, err := mut.call("read_file", map[string]any{"path": "missing.txt"})
		Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(), "%v", err)
	},

	// Tool executor: unknown outcomes and partial mutations (items 29, 34).
	"unknown-outcome-as-retryable": func(name string) { unknownOutcomeAs(name, "IO_ERROR", true) },
	"drop-partial-command-writes": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "echo partial > partial.md; sleep 30", "timeoutMs": 500}
		for _, h := range []*host{ref, mut} {
			r, out := h.ok("run_command", run)
			Expect(out["timedOut"]).To(BeTrue())
			Expect(h.exists("partial.md")).To(BeTrue())
			if h == ref {
				Expect(writePaths(r)).To(ContainElement("partial.md"))
			} else {
				Expect(writePaths(r)).To(BeEmpty())
			}
		}
	},
	// Store, restore and idempotency.
	"restore-ignores-snapshot-hash": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			ctx := context.Background()
			set, err := h.client.ToolSet(ctx)
			Expect(err).NotTo(HaveOccurred())
			names := make([]string, 0, len(set.CanonicalToolIDs))
			for n := range set.CanonicalToolIDs {
				names = append(names, n)
			}
			_, err = h.fresh().client.RestoreToolSet(ctx, wire.RestoreParams{Names: names, SnapshotHash: "sha256:" + strings.Repeat("0", 64)})
			Expect(err != nil).To(Equal(h == ref), "%s: a forged snapshot hash restores: %v", h, err)
		}
	},
	"store-aliases-documents": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			ctx := context.Background()
			for _, run := range []string{"r1", "r2"} {
				_, err := h.client.StorePut(ctx, wire.StorePutParams{RunID: run, Kind: wire.KindCheckpoint, Document: json.RawMessage(`{"runId":"` + run + `"}`)})
				Expect(err).NotTo(HaveOccurred())
			}
			doc, err := h.fresh().client.StoreGet(ctx, wire.StoreGetParams{RunID: "r1", Kind: wire.KindCheckpoint})
			Expect(err).NotTo(HaveOccurred())
			Expect(string(doc) == `{"runId":"r1"}`).To(Equal(h == ref), "%s: r1 holds %s", h, doc)
		}
	},
	"store-reorders-documents": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			ctx := context.Background()
			put := `{"aa":1,"b":{"cc":2,"d":3}}`
			_, err := h.client.StorePut(ctx, wire.StorePutParams{RunID: "r", Kind: wire.KindCheckpoint, Document: json.RawMessage(put)})
			Expect(err).NotTo(HaveOccurred())
			doc, err := h.fresh().client.StoreGet(ctx, wire.StoreGetParams{RunID: "r", Kind: wire.KindCheckpoint})
			Expect(err).NotTo(HaveOccurred())
			Expect(string(doc) == put).To(Equal(h == ref), "%s: the canonical document comes back as %s", h, doc)
		}
	},
}

// brokenListCatalog is the core catalog with a list_files output schema no
// real output can satisfy.
func brokenListCatalog(p *wire.InitializeParams) { hosttest.ImpossibleOutput(p, "workspace.list") }

func writePaths(r port.ToolResult) []string {
	if r.Effects == nil {
		return nil
	}
	var paths []string
	for _, w := range r.Effects.Writes {
		paths = append(paths, w.Path)
	}
	return paths
}

func sha256Of(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// appendFlushed appends an event of run-1 for each of seqs to h's trace
// and flushes it.
func appendFlushed(h *host, seqs ...int64) {
	ctx := context.Background()
	for _, seq := range seqs {
		Expect(h.client.TraceAppend(ctx, traceEvent(seq))).To(Succeed(), "%s: trace/append", h)
	}
	_, err := h.client.TraceFlush(ctx)
	Expect(err).NotTo(HaveOccurred(), "%s: trace/flush", h)
}

// put stores doc as run's document of kind on h.
func put(h *host, run, kind, doc string) {
	_, err := h.client.StorePut(context.Background(), wire.StorePutParams{RunID: run, Kind: kind, Document: json.RawMessage(doc)})
	Expect(err).NotTo(HaveOccurred(), "%s: store/put", h)
}

// unknownOutcomeAs writes under node_modules, which the snapshots cannot
// confirm: the reference answers an unknown outcome, the mutant a failure
// with code and retryable, although the write happened.
func unknownOutcomeAs(name, code string, retryable bool) {
	ref, mut := both(name, setup{})
	write := create("node_modules/pkg/index.js", "x\n")
	_, err := ref.call("write_file", write)
	Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(), "the snapshots cannot confirm the write: %v", err)
	r := mut.fails("write_file", write, code)
	Expect(r.Error.Retryable).To(Equal(retryable))
	Expect(mut.exists("node_modules/pkg/index.js")).To(BeTrue(), "the write happened all the same")
}

func traceEvent(seq int64) wire.TraceEvent {
	return wire.TraceEvent{EventID: "run-1:ex-1:" + strconv.Itoa(int(seq)), ExecutionID: "ex-1", Kind: port.TraceToolCall,
		Payload: json.RawMessage(`{"toolCallId":"c1"}`), RunID: "run-1", Sequence: seq, TaskID: "task-1", Timestamp: "1970-01-01T00:00:00.000Z"}
}

func gitOrSkip() string {
	git, err := exec.LookPath("git")
	if err != nil {
		Skip("git is not installed")
	}
	return git
}

func gitInit(git, dir string) {
	cmd := exec.Command(git, "init", "-q", dir)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+os.DevNull)
	out, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "%s", out)
}
