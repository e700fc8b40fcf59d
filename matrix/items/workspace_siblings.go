package items

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// A sibling is a directory beside the workspace whose name a string
// comparison can mistake for the workspace root's, and the link inside the
// workspace that leads to it.
type sibling struct {
	name, link, why string
}

// rootSiblings are the siblings of item 13's direct spec: one whose name
// differs from the root's only by letter case (outside on a case-sensitive
// file system), one whose name extends the root's.
func rootSiblings() []sibling {
	return []sibling{
		{name: "WORKSPACE", link: "case-peer", why: "its name differs from the root's only by letter case"},
		{name: "workspace-peer", link: "prefix-peer", why: "its name starts with the root's"},
	}
}

// laySiblings makes each sibling beside the workspace, holding secret.txt
// with the word "classified", and a symlink to it in the workspace. A
// sibling the file system cannot tell from the workspace itself (a
// case-insensitive file system) is left out; laySiblings returns the ones
// made. Where no symbolic link can be made the spec is not applicable.
func laySiblings(s *kit.Direct) []sibling {
	var made []sibling
	for _, sb := range rootSiblings() {
		dir := filepath.Join(s.Parent, sb.name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			Expect(os.IsExist(err)).To(BeTrue(), "the harness cannot make %s: %v", dir, err)
			continue
		}
		Expect(os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("classified: do not read\n"), 0o644)).To(Succeed(), "the harness cannot write %s/secret.txt", sb.name)
		if err := os.Symlink(dir, filepath.Join(s.Workspace, sb.link)); err != nil {
			kit.NotApplicable("the harness cannot make symbolic links here: " + err.Error())
		}
		made = append(made, sb)
	}
	return made
}

// siblingsRefused reads, lists and searches through each link to a
// sibling of the root: every call must be refused or find nothing, and no
// answer may quote the sibling's file.
func siblingsRefused(s *kit.Direct, made []sibling) {
	for _, sb := range made {
		calls := []struct {
			model string
			args  map[string]any
		}{
			{"read_file", map[string]any{"path": sb.link + "/secret.txt"}},
			{"list_files", map[string]any{"path": sb.link}},
			{"search_text", map[string]any{"query": "classified", "path": sb.link}},
		}
		for _, c := range calls {
			r := s.Tool(c.model, c.args)
			Expect(r.OK).To(BeFalse(), "%s %v succeeded: %s leads to %s/ beside the workspace, which is outside the root although %s; containment compares resolved paths segment by segment, not as strings", c.model, c.args, sb.link, sb.name, sb.why)
			text := strings.ToLower(r.Content + r.Summary)
			if r.Error != nil {
				text += strings.ToLower(r.Error.Message)
			}
			Expect(text).NotTo(ContainSubstring("classified"), "%s %v quotes %s/secret.txt, outside the workspace", c.model, c.args, sb.name)
		}
	}
}
