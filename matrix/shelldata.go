package matrix

import (
	"sort"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// hostileNames are the file names of 54-git-paths that look like shell
// syntax or options; starDecoy is the file a glob pathspec "star*.txt"
// would also match.
func hostileNames() []string {
	return []string{"semi;touch INJECTED_semi.txt", "$(touch INJECTED_subst.txt).txt", "`touch INJECTED_tick.txt`.txt",
		"pipe|touch INJECTED_pipe.txt", "amp&touch INJECTED_amp.txt", `it's "quoted".txt`, "--output=x54.txt", "-n.txt",
		"with space.txt", "star*.txt"}
}

const starDecoy = "star-decoy.txt"

// Item 54: file names and arguments that look like shell syntax or options
// stay data in the git commands and the package-manager commands the host
// builds, and in the command string it hands the published interpreter.
// The oracle checks no injected command left its marker file and no
// option-like name created its file; these checks read what Git reported.
var _ = describeItem(54, func(c *TestContext) {
	c.scenarios(map[string]check{
		// Catches git-paths-as-options (--output=x54.txt, -n.txt become
		// options), git-through-shell (the names run as shell) and
		// glob-pathspecs (star*.txt also reports the decoy).
		"git-paths.json": func(o *outcome) {
			Expect(o.statusPaths("54-git-status")).To(Equal(sorted(hostileNames())),
				"%s: git_operation status with every hostile name as a path must report exactly those files, each by its own name", o.File)
			Expect(o.statusPaths("54-git-star")).To(Equal([]string{"star*.txt"}),
				"%s: git_operation status with the path star*.txt must report that file only, not %s: paths are literal, never globs", o.File, starDecoy)
			Expect(o.diffPaths("54-git-diff")).To(Equal(sorted(append([]string{starDecoy}, hostileNames()...))),
				"%s: git_operation diff with every changed file as a path must show exactly those files", o.File)
		},
		// Catches implicit-shell: the command string is parsed once, by
		// the published interpreter.
		"command-literals.json": nil,
		// A project directory named like shell syntax or an option is the
		// validation command's cwd, never part of its text.
		"project-paths.json": nil,
	})
})

// statusPaths returns the paths a git_operation status call reported, its
// " M name" lines unquoted, sorted.
func (o *outcome) statusPaths(callID string) []string {
	GinkgoHelper()
	out, _ := o.contentOf(callID)["stdout"].(string)
	var paths []string
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if len(line) < 4 {
			continue
		}
		paths = append(paths, o.gitUnquote(line[3:]))
	}
	return sorted(paths)
}

// diffPaths returns the "+++ b/…" paths of a git_operation diff call,
// unquoted, sorted.
func (o *outcome) diffPaths(callID string) []string {
	GinkgoHelper()
	out, _ := o.contentOf(callID)["stdout"].(string)
	var paths []string
	for _, line := range strings.Split(out, "\n") {
		rest, ok := strings.CutPrefix(line, "+++ ")
		if !ok {
			continue
		}
		p := strings.TrimPrefix(o.gitUnquote(strings.TrimSuffix(rest, "\t")), "b/")
		paths = append(paths, p)
	}
	return sorted(paths)
}

// gitUnquote undoes Git's C-style quoting of a path, if it is quoted.
func (o *outcome) gitUnquote(s string) string {
	GinkgoHelper()
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	u, err := strconv.Unquote(s)
	Expect(err).NotTo(HaveOccurred(), "%s: git reported a quoted path the harness cannot unquote: %s", o.File, s)
	return u
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
