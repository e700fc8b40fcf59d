package lab_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
)

// pauseResumeFixture pauses after its second tool result and resumes on a
// fresh host: every arrangement step of a run happens in it.
const pauseResumeFixture = "../../fixtures/matrix/11-tampered-changed-rejection/file-to-symlink.json"

// victim makes, beside a run's directories, a directory the fixture aims
// at: file.txt, and dir/inner.txt.
func victim(parent string) string {
	GinkgoHelper()
	v := filepath.Join(parent, "victim")
	Expect(os.MkdirAll(filepath.Join(v, "dir"), 0o755)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(v, "file.txt"), []byte("original\n"), 0o644)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(v, "dir", "inner.txt"), []byte("inner\n"), 0o644)).To(Succeed())
	return v
}

// victimUntouched fails unless v holds what victim made, nothing more.
func victimUntouched(v string) {
	GinkgoHelper()
	var got []string
	Expect(filepath.WalkDir(v, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(v, p)
		got = append(got, filepath.ToSlash(rel))
		return nil
	})).To(Succeed())
	Expect(got).To(ConsistOf(".", "dir", "dir/inner.txt", "file.txt"), "the run changed the directory outside the workspace")
	Expect(os.ReadFile(filepath.Join(v, "file.txt"))).To(Equal([]byte("original\n")))
}

// runIn runs fx with RunFixture in directories under parent/run.
func runIn(parent string, fx *fixture.Fixture) *lab.Report {
	GinkgoHelper()
	dirs, err := lab.NewDirs(filepath.Join(parent, "run"))
	Expect(err).NotTo(HaveOccurred())
	rep, err := lab.RunFixture(context.Background(), fx, dirs, lab.Options{Argv: hostArgv("reference"), ForbidContainment: true})
	Expect(err).NotTo(HaveOccurred())
	return rep
}

// hostile returns the pause-and-resume fixture with its arrangement
// replaced by edit.
func hostile(edit func(fx *fixture.Fixture)) *fixture.Fixture {
	GinkgoHelper()
	fx := loadOne(pauseResumeFixture)
	fx.Conform = &fixture.Conform{}
	edit(fx)
	return fx
}

var _ = Describe("the harness's own writes", func() {
	var parent, v string
	BeforeEach(func() {
		parent = GinkgoT().TempDir()
		v = victim(parent)
	})

	// The workspace is parent/run/workspace: ../../victim from it is v.
	escape := fixture.Entry{Path: "esc", Kind: fixture.EntrySymlink, Target: "../../victim"}

	It("make no entry under a link in conform.entries", func() {
		rep := runIn(parent, hostile(func(fx *fixture.Fixture) {
			fx.Conform.Entries = []fixture.Entry{escape, {Path: "esc/newdir", Kind: fixture.EntryDirectory}}
		}))
		victimUntouched(v)
		Expect(rep.Passed).To(BeFalse())
		Expect(rep.Status).To(Equal("arrange_failed"))
		Expect(failuresOf(rep)).To(ContainElement(And(ContainSubstring(`"esc/newdir"`), ContainSubstring("symbolic link"))))
	})

	It("write no resume mutation through a link", func() {
		rep := runIn(parent, hostile(func(fx *fixture.Fixture) {
			fx.Conform.Entries = []fixture.Entry{escape}
			fx.Runtime.Resume.MutateBeforeResume = []fixture.File{{Path: "esc/file.txt", Content: "overwritten\n"}, {Path: "esc/created.txt", Content: "x"}}
		}))
		victimUntouched(v)
		Expect(rep.Status).To(Equal("arrange_failed"))
		Expect(failuresOf(rep)).To(ContainElement(And(ContainSubstring("mutateBeforeResume"), ContainSubstring(`"esc/file.txt"`))))
	})

	It("remove nothing through a link in conform.entriesBeforeResume", func() {
		rep := runIn(parent, hostile(func(fx *fixture.Fixture) {
			fx.Conform.Entries = []fixture.Entry{escape}
			fx.Conform.EntriesBeforeResume = []fixture.Entry{{Path: "esc/dir", Kind: fixture.EntryDirectory}}
		}))
		victimUntouched(v)
		Expect(rep.Status).To(Equal("arrange_failed"))
		Expect(failuresOf(rep)).To(ContainElement(ContainSubstring(`"esc/dir"`)))
	})

	It("replace a link itself, never its target, in conform.entriesBeforeResume", func() {
		rep := runIn(parent, hostile(func(fx *fixture.Fixture) {
			fx.Conform.Entries = []fixture.Entry{{Path: "d", Kind: fixture.EntrySymlink, Target: "../../victim/dir"}}
			fx.Conform.EntriesBeforeResume = []fixture.Entry{{Path: "d", Kind: fixture.EntryDirectory}}
		}))
		victimUntouched(v)
		Expect(failuresOf(rep)).NotTo(ContainElement(ContainSubstring("arrange")))
	})

	It("refuse a link where mutateBeforeResume writes, as any entry but a regular file (LAB §3.3)", func() {
		rep := runIn(parent, hostile(func(fx *fixture.Fixture) {
			fx.Conform.Entries = []fixture.Entry{{Path: "f", Kind: fixture.EntrySymlink, Target: "../../victim/file.txt"}}
			fx.Runtime.Resume.MutateBeforeResume = []fixture.File{{Path: "f", Content: "overwritten\n"}}
		}))
		victimUntouched(v)
		Expect(failuresOf(rep)).To(ConsistOf(And(ContainSubstring("mutateBeforeResume"), ContainSubstring(`"f": the path is a symlink`))))
	})

	It("reach no .git through an alias", func() {
		rep := runIn(parent, hostile(func(fx *fixture.Fixture) {
			fx.Conform.Entries = []fixture.Entry{{Path: "g", Kind: fixture.EntrySymlink, Target: ".git"}}
			fx.Runtime.Resume.MutateBeforeResume = []fixture.File{{Path: "g/config", Content: "[core]\n\tfsmonitor = touch /tmp/pwned\n"}}
		}))
		Expect(rep.Status).To(Equal("arrange_failed"))
		Expect(failuresOf(rep)).To(ContainElement(ContainSubstring(".git")))
		rep = runIn(GinkgoT().TempDir(), hostile(func(fx *fixture.Fixture) {
			fx.InitialFiles = append(fx.InitialFiles, fixture.File{Path: ".git/config", Content: "[core]\n"})
		}))
		Expect(rep.Status).To(Equal("arrange_failed"))
		Expect(failuresOf(rep)).To(ContainElement(ContainSubstring(`".git/config"`)))
	})
})

var _ = Describe("a fixture the workspace cannot hold", func() {
	It("fails with the path named, and the next fixture still runs", func() {
		bad := hostile(func(fx *fixture.Fixture) {
			fx.InitialFiles = []fixture.File{{Path: "a", Content: "file\n"}, {Path: "a/b", Content: "below a file\n"}}
		})
		rep, err := lab.Run(context.Background(), bad, lab.Options{Argv: hostArgv("reference"), ForbidContainment: true}, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Passed).To(BeFalse())
		Expect(rep.Status).To(Equal("arrange_failed"))
		Expect(failuresOf(rep)).To(ConsistOf(And(ContainSubstring("initialFiles"), ContainSubstring(`"a/b"`))))

		long := hostile(func(fx *fixture.Fixture) {
			fx.InitialFiles = []fixture.File{{Path: strings.Repeat("x", 300), Content: "long\n"}}
		})
		rep, err = lab.Run(context.Background(), long, lab.Options{Argv: hostArgv("reference"), ForbidContainment: true}, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Status).To(Equal("arrange_failed"))
	})

	It("stops arranging when the run's context ends", func() {
		fx := hostile(func(fx *fixture.Fixture) {
			for i := range 1000 {
				fx.InitialFiles = append(fx.InitialFiles, fixture.File{Path: fmt.Sprintf("many/%d/f%d", i%7, i), Content: "x"})
			}
		})
		dirs, err := lab.NewDirs(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err = lab.RunFixture(ctx, fx, dirs, lab.Options{Argv: hostArgv("reference"), ForbidContainment: true})
		Expect(err).To(MatchError(context.Canceled))
		Expect(os.ReadDir(dirs.Workspace)).To(BeEmpty(), "nothing is arranged after the context ended")
	})
})

var _ = Describe("a link made between two stages of a campaign", func() {
	It("is not followed by the next stage's arrangement", func() {
		simple := func(name string) *fixture.Fixture {
			p := filepath.Join(GinkgoT().TempDir(), name+".json")
			Expect(os.WriteFile(p, []byte(`{"schemaVersion": 2, "name": "`+name+`", "task": "List the workspace.",
  "rounds": [
    { "toolCalls": [{ "toolCallId": "l", "toolName": "list_files", "arguments": { "path": "." } }], "finishReason": "tool_calls" },
    { "content": "Listed.", "finishReason": "stop" }
  ]}`), 0o644)).To(Succeed())
			return loadOne(p)
		}
		first, second := simple("first"), simple("second")
		// Stage 1 leaves esc, a link to its outside directory, in the
		// shared workspace; stage 2 arranges a file under it.
		first.Conform = &fixture.Conform{Entries: []fixture.Entry{{Path: "esc", Kind: fixture.EntrySymlink, Target: fixture.OutsideVar}}}
		second.InitialFiles = []fixture.File{{Path: "esc/planted.txt", Content: "planted\n"}}
		rep, err := lab.RunCampaign(context.Background(), &fixture.Campaign{Path: "c", Stages: []*fixture.Fixture{first, second}},
			lab.Options{Argv: hostArgv("reference"), ForbidContainment: true}, true)
		Expect(err).NotTo(HaveOccurred())
		parent := filepath.Dir(rep.Workspace)
		DeferCleanup(os.RemoveAll, parent)
		Expect(filepath.Join(parent, "outside-001", "planted.txt")).NotTo(BeAnExistingFile())
		Expect(rep.Passed).To(BeFalse())
		Expect(rep.Stages).To(HaveLen(2))
		Expect(failuresOf(rep.Stages[1].Report)).To(ContainElement(ContainSubstring(`"esc" is a symbolic link`)))
	})
})
