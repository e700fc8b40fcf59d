package items

import (
	"maps"
	"slices"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// commandWritesExact declares item 3's check of S000 T6 "For
// `command.run`, `command.session`, and `project.validate`, emit `write`
// only after independently capturing exact changed paths and state
// hashes": a command that creates one file, rewrites another and deletes a
// third is attested with exactly those three writes and their hashes.
func commandWritesExact(c *kit.TestContext) {
	c.It("a command's writes are exactly the paths it created, modified and deleted, with their hashes", "T6 L3", func() {
		kit.FailRepro(c)
		kit.NeedTool(c, "command.run")
		if env := c.Host().Initialized().CommandEnvironment; env == nil || !slices.Contains([]string{prompt.ShellSh, prompt.ShellBash, prompt.ShellZsh}, env.Command.Shell) {
			kit.NotApplicable("the host's command dialect is not a POSIX shell; this check's command is written for one")
		}
		d := kit.StartDirect(c, map[string]string{"edited.md": "before\n", "gone.md": "remove me\n"}, nil)
		call := d.Exec("run_command", map[string]any{"command": "printf 'after\\n' > edited.md && printf 'made\\n' > made.md && rm gone.md"}, "")
		Expect(call.Err).NotTo(HaveOccurred(), "run_command was answered with an error")
		r := call.Result
		Expect(r.OK).To(BeTrue(), "run_command failed: %.300q", r.Content)
		Expect(r.Effects).NotTo(BeNil(), "a command that changed three files attests no effects")
		got := map[string]port.Write{}
		for _, w := range r.Effects.Writes {
			got[w.Path] = w
		}
		Expect(got).To(HaveLen(3), "a command that created made.md, rewrote edited.md and deleted gone.md attests writes of %v; it must attest exactly those three", slices.Sorted(maps.Keys(got)))
		for path, hashes := range map[string][2]string{
			"edited.md": {kit.HashOf("before\n"), kit.HashOf("after\n")},
			"made.md":   {"", kit.HashOf("made\n")},
			"gone.md":   {kit.HashOf("remove me\n"), ""},
		} {
			w, ok := got[path]
			Expect(ok).To(BeTrue(), "the command's writes leave out %s, which it changed", path)
			Expect(deref(w.BeforeHash)).To(Equal(hashes[0]), "the write of %s has beforeHash %q", path, deref(w.BeforeHash))
			Expect(deref(w.AfterHash)).To(Equal(hashes[1]), "the write of %s has afterHash %q", path, deref(w.AfterHash))
		}
		Expect(r.Effects.StateVersion).NotTo(BeEmpty(), "a command that changed the workspace must advance stateVersion")
	})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// validationFromExitStatus declares item 3's check of S000 T5 "Never
// derive trusted effects by parsing model-visible output text": a
// repository test script that prints "all tests passed" and exits 1 is a
// failed validation.
func validationFromExitStatus(c *kit.TestContext) {
	c.It("a validation's status comes from the check's exit, not from what its output says", "T5 L3", func() {
		kit.FailRepro(c)
		kit.NeedTool(c, "project.validate")
		d := kit.StartDirect(c, map[string]string{"package.json": `{"private":true,"scripts":{"test":"echo all tests passed && exit 1"}}` + "\n"}, nil)
		call := d.Exec("validate_project", map[string]any{"checks": []string{"test"}, "path": "."}, "")
		Expect(call.Err).NotTo(HaveOccurred(), "validate_project was answered with an error")
		r := call.Result
		Expect(r.OK).To(BeTrue(), "validate_project failed: %.300q", r.Content)
		Expect(r.Effects).NotTo(BeNil(), "validate_project attests no validation")
		Expect(r.Effects.Validations).To(HaveLen(1), "one check ran; validate_project attests %d validations", len(r.Effects.Validations))
		if r.Effects.Validations[0].Status == "not_run" {
			kit.NotApplicable("the host could not run the repository's test script here (its validation is not_run)")
		}
		Expect(r.Effects.Validations[0].Status).To(Equal("failed"),
			"a test script that exits 1 while printing \"all tests passed\" is attested %q; the status must come from the exit, never from the output text", r.Effects.Validations[0].Status)
	})
}
