package wsfs

import (
	"path"
	"strings"
	"testing"
)

// FuzzClean checks that every path Clean accepts names an entry strictly
// inside the root and outside .git.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"a", "a/b", "./a", "a/../b", "../a", "/a", ".git/x", "a/.Git", "g/config", "a\\b", "C:x", "a//b/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		c, err := Clean(p)
		if err != nil {
			return
		}
		if c == "" || c == "." || c != path.Clean(c) || path.IsAbs(c) || strings.ContainsAny(c, "\x00\\") {
			t.Fatalf("Clean(%q) = %q", p, c)
		}
		for seg := range strings.SplitSeq(c, "/") {
			if seg == ".." || strings.EqualFold(seg, ".git") {
				t.Fatalf("Clean(%q) = %q, with segment %q", p, c, seg)
			}
		}
	})
}
