package items

import (
	"maps"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// commandWritesExact declares item 3's check of S000 T6 "For
// `command.run`, `command.session`, and `project.validate`, emit `write`
// only after independently capturing exact changed paths and state
// hashes" and T7 "Represent file create as null-before and file delete as
// null-after": a command that creates one file, rewrites another and
// deletes a third is attested with exactly those three writes and their
// hashes, the created file missing/null before and the deleted one
// missing/null after.
func commandWritesExact(c *kit.TestContext) {
	c.It("a command's writes are exactly the paths it created, modified and deleted, with their hashes", "T6 T7 L3", func() {
		kit.FailRepro(c)
		posixCommands(c)
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
		for path, want := range map[string][2]string{
			"edited.md": {kit.HashOf("before\n"), kit.HashOf("after\n")},
			"made.md":   {"", kit.HashOf("made\n")},
			"gone.md":   {kit.HashOf("remove me\n"), ""},
		} {
			w, ok := got[path]
			Expect(ok).To(BeTrue(), "the command's writes leave out %s, which it changed", path)
			sideHash(path, "before", w.BeforeKind, w.BeforeHash, want[0])
			sideHash(path, "after", w.AfterKind, w.AfterHash, want[1])
		}
		Expect(r.Effects.StateVersion).NotTo(BeEmpty(), "a command that changed the workspace must advance stateVersion")
	})
}

// sideHash asserts one side of a command's write of path: want "" is a
// side where the path did not exist, which must be kind missing with a
// null hash (never "" or the hash of no bytes); otherwise a file holding
// the bytes want hashes.
func sideHash(path, side, kind string, got *string, want string) {
	GinkgoHelper()
	if want == "" {
		Expect(kind).To(Equal("missing"), "%s did not exist %s the command; its write says %sKind %q, it must be missing", path, side, side, kind)
		Expect(got).To(BeNil(), "%s did not exist %s the command; its %sHash must be null, it is %q", path, side, side, deref(got))
		return
	}
	Expect(kind).To(Equal("file"), "%s was a file %s the command; its write says %sKind %q", path, side, side, kind)
	Expect(deref(got)).To(Equal(want), "the write of %s has %sHash %q", path, side, deref(got))
}

// posixCommands marks a check not applicable unless the host backs
// command.run with a POSIX shell dialect, the one its commands are
// written for.
func posixCommands(c *kit.TestContext) {
	GinkgoHelper()
	kit.NeedTool(c, "command.run")
	if env := c.Host().Initialized().CommandEnvironment; env == nil || !slices.Contains([]string{prompt.ShellSh, prompt.ShellBash, prompt.ShellZsh}, env.Command.Shell) {
		kit.NotApplicable("the host's command dialect is not a POSIX shell; this check's command is written for one")
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// validationFromExitStatus declares item 3's check of S000 T5 "Never
// derive trusted effects by parsing model-visible output text": each
// check's status follows its exit, whatever its output says. A test
// script that prints "all tests passed" and exits 1 failed; a lint that
// prints "0 failed" and exits 0 passed; a build that prints npm's
// "Missing script" and exits 1 failed (it is declared, so it ran).
func validationFromExitStatus(c *kit.TestContext) {
	c.It("a validation's status comes from the check's exit, not from what its output says", "T5 L3", func() {
		kit.FailRepro(c)
		kit.NeedTool(c, "project.validate")
		scripts := `{"private":true,"scripts":{` +
			`"test":"echo all tests passed && exit 1",` +
			`"lint":"echo 0 problems, 0 failed && exit 0",` +
			`"build":"echo npm ERR! Missing script: build && exit 1"}}` + "\n"
		d := kit.StartDirect(c, map[string]string{"package.json": scripts}, nil)
		call := d.Exec("validate_project", map[string]any{"checks": []string{"test", "lint", "build"}, "path": "."}, "")
		Expect(call.Err).NotTo(HaveOccurred(), "validate_project was answered with an error")
		r := call.Result
		Expect(r.OK).To(BeTrue(), "validate_project failed: %.300q", r.Content)
		Expect(r.Effects).NotTo(BeNil(), "validate_project attests no validation")
		Expect(r.Effects.Validations).To(HaveLen(3), "three checks ran; validate_project attests %d validations", len(r.Effects.Validations))
		status := map[string]string{}
		for _, v := range r.Effects.Validations {
			check, _, _ := strings.Cut(strings.TrimPrefix(v.ID, "project.validate:"), ":")
			status[check] = v.Status
		}
		if status["test"] == "not_run" {
			kit.NotApplicable("the host could not run the repository's scripts here (its test validation is not_run)")
		}
		for check, want := range map[string]string{"test": "failed", "lint": "passed", "build": "failed"} {
			Expect(status).To(HaveKeyWithValue(check, want),
				"the %s script %s; its validation is attested %q: a check's status must come from its exit, never from its output text (%v)",
				check, map[string]string{"test": "prints \"all tests passed\" and exits 1", "lint": "prints \"0 failed\" and exits 0",
					"build": "prints npm's \"Missing script\" and exits 1"}[check], status[check], status)
		}
	})
}
