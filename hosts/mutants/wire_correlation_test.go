package mutants_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The wire-level specs of the commands and correlation mutants: the
// published command environment against what spawns (C4, C5), exits and
// cwd refusals (C10, C11), and which call an approval request or a failure
// names (M3).
var _ = addSpecs(correlationSpecs)

// strictProfile makes every write ask for approval.
func strictProfile(p *wire.InitializeParams) { p.ApprovalProfile = "strict" }

var correlationSpecs = map[string]func(name string){
	"spawn-own-prefix": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "case $- in *e*) echo errexit;; *) echo plain;; esac"}
		Expect(ref.run(run)["stdout"]).To(Equal("plain\n"), "the reference spawns the published prefix, -c alone")
		Expect(mut.run(run)["stdout"]).To(Equal("errexit\n"), "the mutant adds -e of its own")
	},
	"spawn-by-name": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			published := h.init.CommandEnvironment.Command.Executable
			want := published
			if h == mut {
				want = filepath.Base(published)
			}
			Expect(h.run(map[string]any{"command": "echo $0"})["stdout"]).To(Equal(want+"\n"), "%s", h)
		}
	},
	"interpreter-from-call-env": func(name string) {
		posixOnly()
		const bash = "/bin/bash"
		if _, err := os.Stat(bash); err != nil {
			Skip("this spec needs " + bash)
		}
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "echo $0", "env": map[string]any{"SHELL": bash}}
		for _, h := range []*host{ref, mut} {
			want := h.init.CommandEnvironment.Command.Executable
			if h == mut {
				want = bash
			}
			Expect(h.run(run)["stdout"]).To(Equal(want+"\n"), "%s", h)
		}
	},
	"no-command-environment": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			Expect(h.init.Tools).To(ContainElement("command.run"), "%s backs command.run", h)
			Expect(h.init.CommandEnvironment == nil).To(Equal(h == mut), "%s: %+v", h, h.init.CommandEnvironment)
		}
	},
	"unlisted-command-run": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			ts, err := h.client.ToolSet(context.Background())
			Expect(err).NotTo(HaveOccurred(), "%s", h)
			Expect(ts.CanonicalToolIDs).To(HaveKeyWithValue("run_command", "command.run"), "%s activates run_command", h)
			Expect(slices.Contains(h.init.Tools, "command.run")).To(Equal(h == ref), "%s lists %v", h, h.init.Tools)
			Expect(h.init.CommandEnvironment == nil).To(Equal(h == mut), "%s: %+v", h, h.init.CommandEnvironment)
		}
	},
	"unknown-path-style": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			Expect(h.init.Tools).To(ContainElement("command.run"), "%s backs command.run", h)
			Expect(h.init.CommandEnvironment).NotTo(BeNil(), "%s publishes a command environment", h)
			Expect(h.init.CommandEnvironment.Command.PathStyle == "unknown").To(Equal(h == mut), "%s: pathStyle %q", h, h.init.CommandEnvironment.Command.PathStyle)
		}
	},
	"nonzero-exit-as-failure": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "exit 3"}
		Expect(ref.run(run)["exitCode"]).To(BeEquivalentTo(3))
		mut.fails("run_command", run, "IO_ERROR")
	},
	"validation-passed-when-ran": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{files: map[string]string{"package.json": failingTestScript}})
		for _, h := range []*host{ref, mut} {
			out := h.run(map[string]any{"command": "exit 3"})
			Expect(out["exitCode"]).To(BeEquivalentTo(3), "%s: run_command keeps the exit", h)
			_, v := h.ok("validate_project", map[string]any{"checks": []string{"test"}, "path": "."})
			results, _ := v["results"].([]any)
			Expect(results).To(HaveLen(1), "%s: %v", h, v)
			want := "failed"
			if h == mut {
				want = "passed"
			}
			Expect(results[0]).To(HaveKeyWithValue("status", want), "%s: %v", h, v)
		}
	},
	"cwd-as-containment": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			Expect(h.init.Containment.Active).To(BeFalse(), "%s: every backend is forbidden", h)
			want := "uncontained"
			if h == mut {
				want = "workspace_only"
			}
			Expect(h.init.Containment.FilesystemWrites).To(Equal(want), "%s", h)
		}
	},
	"cwd-refusal-as-containment": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{prepare: outsideLink})
		run := map[string]any{"command": "cat secret.txt", "cwd": "link"}
		ref.fails("run_command", run, "PERMISSION_DENIED")
		mut.fails("run_command", run, "UNAVAILABLE")
	},
	"approval-first-context": func(name string) {
		ref, mut := both(name, setup{params: strictProfile})
		for _, h := range []*host{ref, mut} {
			first, second := params("write_file", create("a.txt", "a\n")), params("write_file", create("b.txt", "b\n"))
			Expect(h.send(first).OK).To(BeTrue(), "%s", h)
			Expect(h.send(second).OK).To(BeTrue(), "%s", h)
			Expect(h.approvals).To(HaveLen(2), "%s asks for each write", h)
			want := second.CallID
			if h == mut {
				want = first.CallID
			}
			Expect(h.approvals[1].Context.ToolCallID).To(Equal(want), "%s", h)
			Expect(h.approvals[1].RequestID).To(Equal(second.Context.RunID+":"+want), "%s", h)
		}
	},
	"approval-key-as-request-id": func(name string) {
		ref, mut := both(name, setup{params: strictProfile})
		for _, h := range []*host{ref, mut} {
			p := params("write_file", create("a.txt", "a\n"))
			Expect(h.send(p).OK).To(BeTrue(), "%s", h)
			Expect(h.approvals).To(HaveLen(1), "%s asks for the write", h)
			want := p.CallID
			if h == mut {
				want = p.IdempotencyKey
			}
			Expect(h.approvals[0].RequestID).To(Equal(p.Context.RunID+":"+want), "%s", h)
			Expect(h.approvals[0].Context.ToolCallID).To(Equal(p.CallID), "%s", h)
		}
	},
	"cancel-names-call": func(name string) {
		ref, mut := both(name, setup{approver: "silent", params: func(p *wire.InitializeParams) {
			p.ApprovalProfile = "strict"
			p.ApprovalTimeoutMs = 150
		}})
		for _, h := range []*host{ref, mut} {
			p := params("write_file", create("a.txt", "a\n"))
			r := h.send(p)
			Expect(r.Error).NotTo(BeNil(), "%s: the write whose approval timed out fails", h)
			Expect(r.Error.Code).To(Equal("DENY_APPROVAL_TIMEOUT"), "%s", h)
			// The host may write its $/cancelRequest just after the
			// answer, so the lines are read again until it arrives.
			seen := func() (asked, canceled []string) {
				h.mu.Lock()
				lines := slices.Clone(h.received)
				h.mu.Unlock()
				for _, line := range lines {
					var msg struct {
						ID     json.RawMessage `json:"id"`
						Method string          `json:"method"`
						Params struct {
							ID json.RawMessage `json:"id"`
						} `json:"params"`
					}
					Expect(json.Unmarshal(line, &msg)).To(Succeed(), "%s: %s", h, line)
					switch msg.Method {
					case wire.MethodApproval:
						asked = append(asked, string(msg.ID))
					case wire.MethodCancel:
						canceled = append(canceled, string(msg.Params.ID))
					}
				}
				return asked, canceled
			}
			asked, _ := seen()
			Expect(asked).To(HaveLen(1), "%s asks once", h)
			want := asked
			if h == mut {
				want = []string{`"` + p.CallID + `"`}
			}
			Eventually(func() []string {
				_, canceled := seen()
				return canceled
			}).WithTimeout(5*time.Second).WithPolling(10*time.Millisecond).Should(Equal(want), "%s: $/cancelRequest ids", h)
		}
	},
	"failure-names-previous-call": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"}})
		for _, h := range []*host{ref, mut} {
			read, missing := params("read_file", map[string]any{"path": "a.txt"}), params("read_file", map[string]any{"path": "missing.md"})
			Expect(h.send(read).OK).To(BeTrue(), "%s", h)
			r := h.send(missing)
			Expect(r.OK).To(BeFalse(), "%s", h)
			want := missing.CallID
			if h == mut {
				want = read.CallID
			}
			Expect(failedContent(r.Content)).To(HaveKeyWithValue("toolCallId", want), "%s: %s", h, r.Content)
		}
	},
}

// failingTestScript is a package.json whose test script exits 3.
const failingTestScript = "{\n  \"private\": true,\n  \"scripts\": { \"test\": \"exit 3\" }\n}\n"
