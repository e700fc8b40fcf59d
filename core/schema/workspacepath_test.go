package schema_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/schema"
)

// workspacePathSchema is the WORKSPACE_PATH fragment of CONTRACTS §6.1 as an
// input property, the shape project.detect uses.
func workspacePathSchema() map[string]any {
	return map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"properties": map[string]any{
			"path": map[string]any{
				"type": "string", "minLength": 1, "maxLength": 4096,
				"pattern":     schema.WorkspacePathPattern,
				"description": "Workspace-relative POSIX path.",
			},
		},
	}
}

var _ = Describe("WorkspacePath", func() {
	// The accepted and rejected examples of CONTRACTS §6.1, from the
	// original test "workspace path schemas reject absolute, traversal, and
	// host-native path syntax".
	DescribeTable("accepts portable workspace-relative paths through the validator",
		func(path string) {
			Expect(schema.WorkspacePath(path)).To(Succeed())
			Expect(schema.Validate(workspacePathSchema(), map[string]any{"path": path})).To(Succeed())
		},
		Entry("the root", "."),
		Entry("a dot-prefixed path", "./src"),
		Entry("a trailing single-dot segment", "nested/."),
		Entry("a plain name", "src"),
		Entry("a nested file", "src/index.ts"),
		Entry("a dot directory", ".github/workflows/test.yml"),
		Entry("three dots as a name", "..."),
		Entry("dots inside a name", "a..b/c"),
	)

	DescribeTable("rejects absolute, traversal and host-native paths through the validator",
		func(path string, reason error, message string) {
			err := schema.WorkspacePath(path)
			Expect(errors.Is(err, reason)).To(BeTrue(), "%v", err)
			Expect(err).To(MatchError(message))

			verr := schema.Validate(workspacePathSchema(), map[string]any{"path": path})
			var ve *schema.ValueError
			Expect(errors.As(verr, &ve)).To(BeTrue(), "%v", verr)
			Expect(ve.Violations).To(ContainElement(schema.Violation{Pointer: "/path", Keyword: "pattern", Message: message}))
		},
		Entry("an absolute POSIX path", "/tmp/project", schema.ErrPathAbsolute, `"/tmp/project" is not a workspace-relative path: it starts with "/"`),
		Entry("a drive letter with a slash", "C:/project", schema.ErrPathDriveLetter, `"C:/project" is not a workspace-relative path: it starts with a drive letter`),
		Entry("a drive letter with a backslash", `C:\project`, schema.ErrPathDriveLetter, `"C:\\project" is not a workspace-relative path: it starts with a drive letter`),
		Entry("a leading traversal", "../project", schema.ErrPathTraversal, `"../project" is not a workspace-relative path: it has a ".." segment`),
		Entry("an inner traversal", "src/../secret", schema.ErrPathTraversal, `"src/../secret" is not a workspace-relative path: it has a ".." segment`),
		Entry("a trailing traversal", "src/..", schema.ErrPathTraversal, `"src/.." is not a workspace-relative path: it has a ".." segment`),
		Entry("a bare traversal", "..", schema.ErrPathTraversal, `".." is not a workspace-relative path: it has a ".." segment`),
		Entry("a backslash separator", `src\index.ts`, schema.ErrPathBackslash, `"src\\index.ts" is not a workspace-relative path: it contains a backslash`),
		Entry("an empty segment", "src//index.ts", schema.ErrPathEmptySegment, `"src//index.ts" is not a workspace-relative path: it contains "//"`),
		Entry("a trailing slash", "src/", schema.ErrPathTrailingSlash, `"src/" is not a workspace-relative path: it ends with "/"`),
		Entry("a NUL character", "src/a\x00b", schema.ErrPathNUL, `"src/a\x00b" is not a workspace-relative path: it contains a NUL character`),
		Entry("a line feed", "src/a\nb", schema.ErrPathLineBreak, `"src/a\nb" is not a workspace-relative path: it contains a line break`),
		Entry("a line separator", "src/a\u2028b", schema.ErrPathLineBreak, `"src/a\u2028b" is not a workspace-relative path: it contains a line break`),
	)

	It("rejects the empty string as code and through minLength", func() {
		Expect(schema.WorkspacePath("")).To(MatchError(schema.ErrPathEmpty))
		err := schema.Validate(workspacePathSchema(), map[string]any{"path": ""})
		var ve *schema.ValueError
		Expect(errors.As(err, &ve)).To(BeTrue())
		Expect(ve.Violations).To(ContainElement(schema.Violation{Pointer: "/path", Keyword: "minLength", Message: "has 0 UTF-16 code units, fewer than the minimum 1"}))
	})

	It("applies only to the exact workspace-path pattern", func() {
		// A pattern differing by one character is compiled by RE2, which
		// rejects lookaheads: the hook is not a loophole for other patterns.
		s := workspacePathSchema()
		s["properties"].(map[string]any)["path"].(map[string]any)["pattern"] = schema.WorkspacePathPattern + " "
		Expect(schema.CheckDefinition(s)).To(ConsistOf(ContainSubstring(`#/properties/path: "pattern" is not a valid regular expression`)))
	})
})
