package mutants_test

import (
	"context"
	"path/filepath"
	"slices"

	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The wire-level specs of the mutants items 46 and 51 kill: two captures
// and two diffs of an unchanged workspace, and a validation script that
// removes a file.
var _ = addSpecs(map[string]func(name string){
	"validation-without-writes": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{files: map[string]string{
			"package.json": `{"private":true,"scripts":{"test":"rm -f stale.tmp"}}`,
			"stale.tmp":    "old output\n",
		}})
		for _, h := range []*host{ref, mut} {
			r, _ := h.ok("validate_project", map[string]any{"checks": []string{"test"}, "path": "."})
			Expect(r.Effects).NotTo(BeNil(), "%s", h)
			Expect(r.Effects.Validations).To(HaveLen(1), "%s", h)
			if r.Effects.Validations[0].Status == "not_run" {
				Skip("the repository's test script cannot run here")
			}
			Expect(slices.Contains(writePaths(r), "stale.tmp")).To(Equal(h == ref), "%s attests the removal of stale.tmp: %v", h, writePaths(r))
		}
	},
	"fingerprint-capture-time": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"}})
		for _, h := range []*host{ref, mut} {
			ctx := context.Background()
			first, err := h.client.CaptureFingerprint(ctx, []wire.ActiveFile{}, nil)
			Expect(err).NotTo(HaveOccurred(), "%s", h)
			second, err := h.client.CaptureFingerprint(ctx, []wire.ActiveFile{}, nil)
			Expect(err).NotTo(HaveOccurred(), "%s", h)
			Expect(second.StateFingerprint == first.StateFingerprint).To(Equal(h == ref), "%s: two captures of an unchanged workspace: %s, %s", h, first.StateFingerprint, second.StateFingerprint)
		}
	},
	"diff-hash-capture-time": func(name string) {
		git := gitOrSkip()
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "a\n"},
			prepare: func(dir string) { gitInit(git, filepath.Join(dir, "workspace")) }})
		for _, h := range []*host{ref, mut} {
			first, _ := h.ok("git_operation", map[string]any{"action": "diff"})
			second, _ := h.ok("git_operation", map[string]any{"action": "diff"})
			Expect(first.Effects.DiffReview).NotTo(BeNil(), "%s", h)
			Expect(second.Effects.DiffReview).NotTo(BeNil(), "%s", h)
			Expect(second.Effects.DiffReview.DiffHash == first.Effects.DiffReview.DiffHash).To(Equal(h == ref),
				"%s: two reviews of an unchanged diff: %s, %s", h, first.Effects.DiffReview.DiffHash, second.Effects.DiffReview.DiffHash)
		}
	},
})
