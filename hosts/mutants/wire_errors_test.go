package mutants_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"

	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The wire-level specs of the tool executor's error-semantics and policy
// mutants (matrix items 7, 8, 29, 34, 37) and of the store and trace
// mutants of items 10, 14 and 39.
func init() {
	for name, spec := range errorSpecs {
		specs[name] = spec
	}
}

// failedContent decodes the content of a failed result.
func failedContent(content string) map[string]any {
	var m map[string]any
	Expect(json.Unmarshal([]byte(content), &m)).To(Succeed(), "%s", content)
	return m
}

// brokenWriteCatalog gives write_file an output schema no output meets.
func brokenWriteCatalog(p *wire.InitializeParams) { hosttest.ImpossibleOutput(p, "workspace.write") }

var errorSpecs = map[string]func(name string){
	"non-retryable-as-retryable": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			r := h.fails("read_file", map[string]any{"path": "missing.md"}, "NOT_FOUND")
			Expect(r.Error.Retryable).To(Equal(h == mut), "%s: a missing file is retryable", h)
			Expect(failedContent(r.Content)["error"]).To(HaveKeyWithValue("retryable", h == mut), "%s: %s", h, r.Content)
		}
	},
	"failure-without-call-id": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			p := params("read_file", map[string]any{"path": "missing.md"})
			r := h.send(p)
			Expect(r.OK).To(BeFalse())
			want := p.CallID
			if h == mut {
				want = ""
			}
			Expect(failedContent(r.Content)).To(HaveKeyWithValue("toolCallId", want), "%s: %s", h, r.Content)
		}
	},
	"write-before-policy": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			p := params("write_file", create("made.md", "made\n"))
			p.Context.Mode = "review_only"
			r := h.send(p)
			Expect(r.OK).To(BeFalse(), "%s: review_only refuses write_file", h)
			Expect(r.Error.Code).To(Equal("DENY_RUN_MODE"))
			Expect(h.exists("made.md")).To(Equal(h == mut), "%s: the refused write ran", h)
		}
	},
	"unknown-outcome-as-precondition": func(name string) { unknownOutcomeAs(name, "PRECONDITION_FAILED", false) },
	"idempotency-in-memory": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			p := params("write_file", create("a.txt", "one"))
			first := h.send(p)
			Expect(first.OK).To(BeTrue())
			again := h.fresh().send(p)
			Expect(again.OK).To(Equal(h == ref), "%s: a fresh process answers the key's recorded result: %s", h, again.Content)
		}
	},
	"output-validation-read-only": func(name string) {
		ref, mut := both(name, setup{params: func(p *wire.InitializeParams) { brokenListCatalog(p); brokenWriteCatalog(p) }})
		for _, h := range []*host{ref, mut} {
			_, err := h.call("list_files", map[string]any{"path": "."})
			Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(), "%s: list_files output is validated: %v", h, err)
		}
		_, err := ref.call("write_file", create("a.txt", "a\n"))
		Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(), "write_file output is validated: %v", err)
		mut.ok("write_file", create("a.txt", "a\n"))
	},
	"store-merges-documents": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			ctx := context.Background()
			for _, doc := range []string{`{"n":1,"only":true}`, `{"n":2}`} {
				put(h, "r", wire.KindCheckpoint, doc)
			}
			doc, err := h.client.StoreGet(ctx, wire.StoreGetParams{RunID: "r", Kind: wire.KindCheckpoint})
			Expect(err).NotTo(HaveOccurred())
			Expect(string(doc) == `{"n":2}`).To(Equal(h == ref), "%s: the latest put reads back as %s", h, doc)
		}
	},
	"store-in-workspace": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			put(h, "r", wire.KindCheckpoint, `{"n":1}`)
			ents, err := os.ReadDir(h.ws)
			Expect(err).NotTo(HaveOccurred())
			Expect(len(ents) > 0).To(Equal(h == mut), "%s: the workspace holds %v after a store/put", h, ents)
			_, err = os.Stat(filepath.Join(h.st, "runs"))
			Expect(err == nil).To(Equal(h == ref), "%s: the store directory holds the runs", h)
		}
	},
	"trace-own-sequence": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			appendFlushed(h, 4)
			evs, err := h.client.TraceList(context.Background(), "run-1")
			Expect(err).NotTo(HaveOccurred())
			Expect(evs).To(HaveLen(1))
			Expect(evs[0].Sequence == 4).To(Equal(h == ref), "%s: the event lists with sequence %d", h, evs[0].Sequence)
		}
	},
	"unknown-shell-environment": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			Expect(h.init.Tools).To(ContainElement("command.run"), "%s backs command.run", h)
			Expect(h.init.CommandEnvironment).NotTo(BeNil(), "%s publishes a command environment", h)
			Expect(h.init.CommandEnvironment.Command.Shell == "unknown").To(Equal(h == mut), "%s: shell %q", h, h.init.CommandEnvironment.Command.Shell)
		}
	},
	"balanced-whatever-declared": func(name string) {
		ref, mut := both(name, setup{params: func(p *wire.InitializeParams) { p.ApprovalProfile = "strict" }})
		for _, h := range []*host{ref, mut} {
			h.ok("write_file", create("a.txt", "a\n"))
			Expect(h.asked() > 0).To(Equal(h == ref), "%s: strict asks before a medium-risk write", h)
		}
	},
	"failure-state-version": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"}})
		for _, h := range []*host{ref, mut} {
			r := h.fails("write_file", create("a.txt", "b\n"), "PRECONDITION_FAILED")
			Expect(r.Effects != nil && r.Effects.StateVersion != "").To(Equal(h == mut), "%s: the failure attests a state version: %+v", h, r.Effects)
		}
	},
	"uncorrelated-denial-id": func(name string) {
		ref, mut := both(name, setup{deny: true, params: func(p *wire.InitializeParams) { p.ApprovalProfile = "strict" }})
		for _, h := range []*host{ref, mut} {
			p := params("write_file", create("a.txt", "a\n"))
			r := h.send(p)
			Expect(r.OK).To(BeFalse(), "%s: the denied write fails", h)
			Expect(r.Effects).NotTo(BeNil())
			want := p.Context.RunID + ":" + p.CallID
			if h == mut {
				want = p.CallID
			}
			Expect(r.Effects.ApprovalRequestID).To(Equal(want), "%s", h)
		}
	},
	"derived-state-unversioned": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "mkdir -p node_modules/x && echo y > node_modules/x/i.js"}
		for _, h := range []*host{ref, mut} {
			r, out := h.ok("run_command", run)
			Expect(out["derivedMutations"]).NotTo(BeNil(), "%s reports the derived change", h)
			Expect(r.Effects != nil && r.Effects.StateVersion != "").To(Equal(h == ref), "%s: a derived-only change advances stateVersion: %+v", h, r.Effects)
		}
	},
	"trace-flush-before-durable": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			appendFlushed(h, 1)
			p, err := os.FindProcess(h.client.PID())
			Expect(err).NotTo(HaveOccurred())
			Expect(p.Kill()).To(Succeed())
			evs, err := h.fresh().client.TraceList(context.Background(), "run-1")
			Expect(err).NotTo(HaveOccurred())
			Expect(evs).To(HaveLen(map[bool]int{true: 1, false: 0}[h == ref]), "%s: the flushed event survives the kill", h)
		}
	},
	"command-creates-only": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{files: map[string]string{"edited.md": "before\n"}})
		for _, h := range []*host{ref, mut} {
			r, _ := h.ok("run_command", map[string]any{"command": "printf 'after\\n' > edited.md && printf 'made\\n' > made.md"})
			Expect(writePaths(r)).To(ContainElement("made.md"), "%s", h)
			Expect(slices.Contains(writePaths(r), "edited.md")).To(Equal(h == ref), "%s attests the rewrite of edited.md: %v", h, writePaths(r))
		}
	},
	"validation-status-from-output": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{files: map[string]string{"package.json": `{"private":true,"scripts":{"test":"echo all tests passed && exit 1"}}`}})
		for _, h := range []*host{ref, mut} {
			r, _ := h.ok("validate_project", map[string]any{"checks": []string{"test"}, "path": "."})
			Expect(r.Effects).NotTo(BeNil())
			Expect(r.Effects.Validations).To(HaveLen(1))
			if r.Effects.Validations[0].Status == "not_run" {
				Skip("the repository's test script cannot run here")
			}
			Expect(r.Effects.Validations[0].Status).To(Equal(map[bool]string{true: "failed", false: "passed"}[h == ref]), "%s", h)
		}
	},
	"case-insensitive-routing": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"}})
		ref.fails("Read_File", map[string]any{"path": "a.txt"}, "UNKNOWN_TOOL")
		r, _ := mut.ok("Read_File", map[string]any{"path": "a.txt"})
		Expect(r.CanonicalToolID).To(Equal("workspace.read"))
	},
	"canonical-id-as-model-name": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"}})
		ref.fails("workspace.read", map[string]any{"path": "a.txt"}, "UNKNOWN_TOOL")
		r, _ := mut.ok("workspace.read", map[string]any{"path": "a.txt"})
		Expect(r.CanonicalToolID).To(Equal("workspace.read"))
	},
	"idempotency-key-only": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			p := params("write_file", create("a.txt", "one\n"))
			h.send(p)
			e := params("edit_file", map[string]any{"path": "a.txt", "oldText": "one", "newText": "two"})
			e.IdempotencyKey = p.IdempotencyKey
			r, err := h.client.Execute(context.Background(), e)
			Expect(err).NotTo(HaveOccurred())
			Expect(r.CanonicalToolID == "workspace.edit").To(Equal(h == ref), "%s answers the edit as %s", h, r.CanonicalToolID)
		}
	},
	"failure-inspected": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			r := h.fails("read_file", map[string]any{"path": "missing.md"}, "NOT_FOUND")
			Expect(r.Effects != nil && len(r.Effects.InspectedPaths) > 0).To(Equal(h == mut), "%s: %+v", h, r.Effects)
		}
	},
}
