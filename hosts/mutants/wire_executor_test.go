package mutants_test

import (
	"context"
	"slices"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The wire-level specs of the tool executor's effect-metadata, evidence
// and validation-script mutants (T3, T5, T7–T11), which items 2, 3, 7, 9
// and 30 catch.
var _ = addSpecs(map[string]func(name string){
	"canonical-ids-from-catalog": func(name string) {
		ref, mut := both(name, setup{params: func(p *wire.InitializeParams) { p.Mode = "review_only" }})
		for _, h := range []*host{ref, mut} {
			ts, err := h.client.ToolSet(context.Background())
			Expect(err).NotTo(HaveOccurred())
			_, mapsInactive := ts.CanonicalToolIDs["write_file"]
			Expect(mapsInactive).To(Equal(h == mut), "%s maps write_file, inactive in review_only: %v", h, ts.CanonicalToolIDs)
			_, err = effects.CheckToolSet(ts)
			Expect(err == nil).To(Equal(h == ref), "%s: the core's tool-set check says %v", h, err)
		}
	},
	"capabilities-of-active-only": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			ts, err := h.client.ToolSet(context.Background())
			Expect(err).NotTo(HaveOccurred())
			_, declared := ts.EffectCapabilities["research.search"]
			Expect(declared).To(Equal(h == ref), "%s declares the inactive research.search's capabilities", h)
		}
	},
	"validation-fails-on-output": func(name string) {
		posixOnly()
		validationStatus(name, `echo 0 problems, 0 failed && exit 0`, "passed", "failed")
	},
	"validation-skipped-on-output": func(name string) {
		posixOnly()
		validationStatus(name, `echo npm ERR! Missing script: test && exit 1`, "failed", "not_run")
	},
	"command-output-as-validation": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			r, _ := h.ok("run_command", map[string]any{"command": "echo 3 tests passed"})
			Expect(r.Effects != nil && len(r.Effects.Validations) > 0).To(Equal(h == mut), "%s attests a validation: %+v", h, r.Effects)
		}
	},
	"missing-hash-empty-string": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			w := h.firstWrite("write_file", create("new.txt", "new\n"), 1)
			Expect(w.BeforeKind).To(Equal("missing"), "%s", h)
			if h == ref {
				Expect(w.BeforeHash).To(BeNil())
			} else {
				Expect(w.BeforeHash).To(HaveValue(Equal("")))
			}
		}
	},
	"delete-as-empty-file": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{files: map[string]string{"gone.md": "x\n"}})
		for _, h := range []*host{ref, mut} {
			w := h.firstWrite("run_command", map[string]any{"command": "rm gone.md"}, 1)
			if h == ref {
				Expect(w.AfterKind).To(Equal("missing"))
				Expect(w.AfterHash).To(BeNil())
			} else {
				Expect(w.AfterKind).To(Equal("file"))
				Expect(w.AfterHash).To(HaveValue(Equal(sha256Of(""))))
			}
		}
	},
	"symlink-followed-in-evidence": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{files: map[string]string{"target.txt": "t\n"}})
		Expect(afterKinds(ref.result("run_command", map[string]any{"command": "ln -s target.txt l"}))).To(Equal(map[string]string{"l": "symlink"}))
		Expect(afterKinds(mut.result("run_command", map[string]any{"command": "ln -s target.txt l"}))).To(Equal(map[string]string{"l": "file"}))
	},
	"directory-listing-hash": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			w := h.firstWrite("write_file", create("docs/new.txt", "new\n"), 2)
			Expect(w.Path).To(Equal("docs"))
			Expect(w.AfterKind).To(Equal("directory"), "%s", h)
			Expect(w.AfterHash == nil).To(Equal(h == ref), "%s: the directory's after hash", h)
		}
	},
	"derived-nested-as-write": func(name string) {
		posixOnly()
		derivedWrites(name, "mkdir -p app/node_modules/p && echo x > app/node_modules/p/i.js", "app/node_modules/p/i.js")
	},
	"derived-leaf-files-as-write": func(name string) {
		posixOnly()
		derivedWrites(name, "echo x > build.log", "build.log")
	},
	"derived-roots-as-write": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			r, _ := h.ok("run_command", map[string]any{"command": "mkdir -p node_modules/p && echo x > node_modules/p/i.js"})
			Expect(writePaths(r)).To(Equal(map[bool][]string{true: nil, false: {"node_modules"}}[h == ref]), "%s", h)
		}
	},
	"validate-approval-remembered": func(name string) {
		pkg := `{"private":true,"scripts":{"test":"exit 0"}}`
		ref, mut := both(name, setup{files: map[string]string{"package.json": pkg}, params: trustedWorkspace})
		for _, h := range []*host{ref, mut} {
			for range 2 {
				h.result("validate_project", map[string]any{"checks": []string{"test"}, "path": "."})
			}
			Expect(h.asked()).To(Equal(map[bool]int{true: 2, false: 1}[h == ref]), "%s: approval requests for two validations", h)
		}
	},
	"validate-subpackage-unapproved": func(name string) {
		pkg := `{"private":true,"scripts":{"test":"exit 0"}}`
		ref, mut := both(name, setup{files: map[string]string{"app/package.json": pkg}, params: trustedWorkspace})
		for _, h := range []*host{ref, mut} {
			h.result("validate_project", map[string]any{"checks": []string{"test"}, "path": "app"})
			Expect(h.asked()).To(Equal(map[bool]int{true: 1, false: 0}[h == ref]), "%s: approval requests for a sub-package's validation", h)
		}
	},
})

// validationStatus runs one test script on the reference host and the
// mutant and expects the statuses each attests.
func validationStatus(name, script, refStatus, mutStatus string) {
	GinkgoHelper()
	ref, mut := both(name, setup{files: map[string]string{"package.json": `{"private":true,"scripts":{"test":"` + script + `"}}`}})
	for _, h := range []*host{ref, mut} {
		r, _ := h.ok("validate_project", map[string]any{"checks": []string{"test"}, "path": "."})
		Expect(r.Effects).NotTo(BeNil())
		Expect(r.Effects.Validations).To(HaveLen(1))
		Expect(r.Effects.Validations[0].Status).To(Equal(map[bool]string{true: refStatus, false: mutStatus}[h == ref]), "%s", h)
	}
}

// derivedWrites runs command on the reference host and the mutant: the
// reference attests no write of the derived path, the mutant a write
// hashed by the path's metadata, not its bytes.
func derivedWrites(name, command, path string) {
	GinkgoHelper()
	ref, mut := both(name, setup{})
	for _, h := range []*host{ref, mut} {
		r, _ := h.ok("run_command", map[string]any{"command": command})
		Expect(slices.Contains(writePaths(r), path)).To(Equal(h == mut), "%s attests %s as a write: %v", h, path, writePaths(r))
		for _, w := range writes(r) {
			if w.Path == path {
				Expect(w.AfterHash).NotTo(HaveValue(Equal(sha256Of("x\n"))), "the mutant's hash is the metadata fingerprint")
			}
		}
	}
}

// writes are the write evidence of r.
func writes(r port.ToolResult) []port.Write {
	if r.Effects == nil {
		return nil
	}
	return r.Effects.Writes
}

// trustedWorkspace sets the approval profile under which no profile
// threshold asks for project.validate: only its lack of verified
// containment does.
func trustedWorkspace(p *wire.InitializeParams) { p.ApprovalProfile = "trusted-workspace" }
