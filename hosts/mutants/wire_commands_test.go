package mutants_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/galaxy-stack/conform/hosts/reference/command"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The wire-level specs of the command mutants that matrix items 6 and 52
// catch, kept apart from the main table so that each addition stays
// self-contained.
var _ = addSpecs(commandSpecs)

var commandSpecs = map[string]func(name string){
	"truncate-spill": func(name string) {
		posixOnly()
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "head -c 400000 /dev/zero | tr '\\0' a"}
		for _, h := range []*host{ref, mut} {
			r, out := h.ok("run_command", run)
			Expect(out["truncated"]).To(BeTrue())
			files := strings.Split(strings.TrimPrefix(r.ArtifactRef, "conform-spill://"), ",")
			Expect(files).NotTo(BeEmpty(), "%s names its spill files", h)
			info, err := os.Stat(filepath.Join(h.st, "spill", files[0]))
			Expect(err).NotTo(HaveOccurred(), "%s keeps its stdout spill file", h)
			if h == ref {
				Expect(info.Size()).To(BeEquivalentTo(400000), "the reference spills the whole stdout")
			} else {
				Expect(info.Size()).To(BeEquivalentTo(command.DefaultMaxOutputBytes), "the mutant spills only the bounded part")
			}
		}
	},
	"terminal-stdin": func(name string) {
		if runtime.GOOS != "linux" {
			Skip("the terminal-stdin fault opens a pseudo-terminal only on Linux")
		}
		ref, mut := both(name, setup{})
		run := map[string]any{"command": "if [ -t 0 ]; then echo tty; else echo notty; fi"}
		Expect(ref.run(run)["stdout"]).To(Equal("notty\n"))
		Expect(mut.run(run)["stdout"]).To(Equal("tty\n"), "the mutant's stdin is a terminal")
	},
}
