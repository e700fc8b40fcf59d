package workspace_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

const exclusionWarning = "Project scan completeness applies to the host-visible tree; excluded directory names: .git, coverage, dist, node_modules."

var _ = Describe("DetectProject", func() {
	var f *fixture
	BeforeEach(func() { f = newFixture() })

	detect := func(p string) (workspace.Project, string) {
		GinkgoHelper()
		proj, err := f.root.DetectProject(ctx, p)
		Expect(err).NotTo(HaveOccurred())
		out, err := json.Marshal(proj)
		Expect(err).NotTo(HaveOccurred())
		return proj, string(out)
	}

	It("describes the inspect-existing-project seed fixture", func() {
		f.write("package.json", "{\n  \"private\": true,\n  \"scripts\": { \"test\": \"node --test\" }\n}\n")
		f.write("src/index.ts", "export const entry = true;\n")
		f.write("test/index.test.ts", "// deterministic test marker\n")
		proj, out := detect(".")
		for _, s := range []string{"TypeScript", "node --test", `"complete":true`} {
			Expect(out).To(ContainSubstring(s))
		}
		Expect(out).To(HavePrefix(`{"projectRoot":".","languages":["TypeScript"],"manifests":["package.json"],"commands":{"test":"node --test"},"scan":{"complete":true,"deepestDepth":2,"entriesScanned":5,"maxDepth":20},"warnings":[`))
		Expect(out).To(HaveSuffix(`],"packageManager":"npm"}`))
		Expect(proj.Warnings).To(Equal([]string{exclusionWarning}))
	})

	It("detects Go, Rust and Python projects and lock-file package managers", func() {
		f.write("go.mod", "module x\n")
		f.write("cmd/main.go", "package main\n")
		f.write("crates/core/Cargo.toml", "[package]\n")
		f.write("crates/core/src/lib.rs", "")
		f.write("py/pyproject.toml", "[project]\n")
		f.write("py/app.py", "")
		f.write("package.json", `{"scripts":{"build":"tsc","lint":7}}`)
		f.write("pnpm-lock.yaml", "")
		proj, _ := detect("")
		Expect(proj.Languages).To(Equal([]string{"Go", "Python", "Rust"}))
		Expect(proj.Manifests).To(Equal([]string{"crates/core/Cargo.toml", "go.mod", "package.json", "py/pyproject.toml"}))
		Expect(proj.PackageManager).To(Equal("pnpm"))
		Expect(proj.Commands).To(Equal(map[string]string{"build": "tsc"}))
		Expect(proj.Warnings).To(ContainElement("Root manifest 'package.json' contains non-string scripts; those entries were ignored."))

		sub, _ := detect("crates/core")
		Expect(sub.ProjectRoot).To(Equal("crates/core"))
		Expect(sub.Manifests).To(Equal([]string{"crates/core/Cargo.toml"}))
		Expect(sub.PackageManager).To(BeEmpty())
	})

	It("ignores directories that look like manifests or sources", func() {
		Expect(os.MkdirAll(f.abs("package.json"), 0o755)).To(Succeed())
		Expect(os.MkdirAll(f.abs("fake.ts/go.mod"), 0o755)).To(Succeed())
		f.write("notes.txt", "")
		proj, out := detect(".")
		Expect(proj.Languages).To(BeEmpty())
		Expect(proj.Manifests).To(BeEmpty())
		Expect(proj.PackageManager).To(BeEmpty())
		Expect(out).NotTo(ContainSubstring("packageManager"))
		Expect(proj.Warnings).To(ContainElement(exclusionWarning))
	})

	DescribeTable("reports a malformed root manifest as a warning",
		func(content, warning string) {
			f.write("package.json", content)
			proj, _ := detect(".")
			Expect(proj.Commands).To(BeEmpty())
			Expect(proj.Warnings).To(Equal([]string{exclusionWarning, warning}))
			Expect(proj.Scan.Complete).To(BeTrue())
		},
		Entry("bad JSON", "{", "Root manifest 'package.json' is not valid JSON; scripts were not parsed."),
		Entry("array", "[]", "Root manifest 'package.json' must contain a JSON object; scripts were not parsed."),
		Entry("scripts array", `{"scripts":[]}`, "Root manifest 'package.json' has a non-object 'scripts' field; scripts were not parsed."),
		Entry("invalid UTF-8", "{\"a\":\"\xff\"}", "Root manifest 'package.json' is not valid UTF-8 text; scripts were not parsed."),
		Entry("too large", `{"scripts":{}, "pad":"`+strings.Repeat("x", 130_000)+`"}`, "Root manifest 'package.json' exceeds 128000 readable bytes; scripts were not parsed."),
	)

	It("reports an incomplete scan when the depth limit is reached", func() {
		var parts []string
		for i := range workspace.DetectMaxDepth + 2 {
			parts = append(parts, fmt.Sprintf("d%d", i))
		}
		f.write(strings.Join(parts, "/")+"/deep.go", "")
		proj, out := detect(".")
		Expect(out).To(ContainSubstring(`"complete":false`))
		Expect(proj.Scan.DeepestDepth).To(Equal(workspace.DetectMaxDepth))
		Expect(proj.Languages).To(BeEmpty(), "deep.go lies beyond the scan")
		Expect(proj.Warnings[0]).To(Equal("The project scan reached its maximum depth of 20; deeper entries were not inspected."))
	})

	It("reports an incomplete scan when the workspace adapter limit is reached", func() {
		for i := range 10 {
			f.write(fmt.Sprintf("src/f%d.rs", i), "")
		}
		workspace.SetMaxEntries(f.root, 5)
		proj, _ := detect(".")
		Expect(proj.Scan.Complete).To(BeFalse())
		Expect(proj.Warnings[0]).To(Equal("The workspace adapter limit prevented a complete project scan."))
	})

	It("fails on a missing or escaping root", func() {
		_, err := f.root.DetectProject(ctx, "nope")
		Expect(err).To(haveCode(hosterr.NotFound))
		_, err = f.root.DetectProject(ctx, "../outside")
		Expect(err).To(haveCode(hosterr.PermissionDenied))
	})
})
