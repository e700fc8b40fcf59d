package kit

import (
	"sort"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// StatusPaths returns the paths a git_operation status call reported, its
// " M name" lines unquoted, sorted.
func (o *Outcome) StatusPaths(callID string) []string {
	GinkgoHelper()
	out, _ := o.ContentOf(callID)["stdout"].(string)
	var paths []string
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if len(line) < 4 {
			continue
		}
		paths = append(paths, o.gitUnquote(line[3:]))
	}
	return Sorted(paths)
}

// DiffPaths returns the "+++ b/…" paths of a git_operation diff call,
// unquoted, sorted.
func (o *Outcome) DiffPaths(callID string) []string {
	GinkgoHelper()
	out, _ := o.ContentOf(callID)["stdout"].(string)
	var paths []string
	for _, line := range strings.Split(out, "\n") {
		rest, ok := strings.CutPrefix(line, "+++ ")
		if !ok {
			continue
		}
		p := strings.TrimPrefix(o.gitUnquote(strings.TrimSuffix(rest, "\t")), "b/")
		paths = append(paths, p)
	}
	return Sorted(paths)
}

// gitUnquote undoes Git's C-style quoting of a path, if it is quoted.
func (o *Outcome) gitUnquote(s string) string {
	GinkgoHelper()
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	u, err := strconv.Unquote(s)
	Expect(err).NotTo(HaveOccurred(), "%s: git reported a quoted path the harness cannot unquote: %s", o.File, s)
	return u
}

// Sorted returns a sorted copy of s.
func Sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
