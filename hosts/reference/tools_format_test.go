package reference_test

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("project.format", func() {
	offer := func(p *wire.InitializeParams) {
		p.Extensions = []string{catalog.FlagProjectFormat, catalog.FlagProjectFormatGo}
	}
	goFiles := map[string]string{
		"m/go.mod":  "module example.com/m\n\ngo 1.22\n",
		"m/a.go":    "package m\nfunc A( ) int {return 1}\n",
		"m/b.go":    "package m\n\nfunc B() int { return 2 }\n",
		"m/bad.go":  "package m\nfunc (\n",
		"other.txt": "x",
	}
	read := func(e *env, rel string) string {
		b, err := os.ReadFile(filepath.Join(e.ws, rel))
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}

	It("is not callable unless the harness offers its flag", func() {
		e := start(setup{files: goFiles})
		Expect(e.init.Extensions).To(BeEmpty())
		r, err := e.call(catalog.ProjectFormatModelName, map[string]any{"files": []any{"m/a.go"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeFalse())
		Expect(read(e, "m/a.go")).To(Equal(goFiles["m/a.go"]))
	})

	It("formats only the selected file, writes nothing for a formatted one and keeps the job", func() {
		e := start(setup{files: goFiles, params: offer})
		Expect(e.init.Extensions).To(ConsistOf(catalog.FlagProjectFormat, catalog.FlagProjectFormatGo))
		_, out := e.ok(catalog.ProjectFormatModelName, map[string]any{"files": []any{"m/a.go", "m/b.go"}})
		Expect(out["stateChanged"]).To(BeTrue())
		Expect(read(e, "m/a.go")).To(Equal("package m\n\nfunc A() int { return 1 }\n"))
		Expect(read(e, "m/b.go")).To(Equal(goFiles["m/b.go"]))
		Expect(read(e, "m/bad.go")).To(Equal(goFiles["m/bad.go"]))
		_, again := e.ok(catalog.ProjectFormatModelName, map[string]any{"files": []any{"m/a.go"}})
		Expect(again["stateChanged"]).To(BeFalse())
		var obs wire.JobObserveResult
		Expect(e.client.Call(context.Background(), wire.MethodJobObserve, wire.JobObserveParams{CallID: "call-format_project-" + itoa(callN)}, 5*time.Second, &obs)).To(Succeed())
		Expect(obs.Job).NotTo(BeNil())
		Expect(string(obs.Job.StateChanged)).To(Equal("false"))
	})

	It("fails without a write on a syntax error and refuses unsafe paths", func() {
		e := start(setup{files: goFiles, params: offer})
		r, err := e.call(catalog.ProjectFormatModelName, map[string]any{"files": []any{"m/a.go", "m/bad.go"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeFalse())
		Expect(r.Error.Code).To(Equal("FORMATTER_FAILED"))
		Expect(read(e, "m/a.go")).To(Equal(goFiles["m/a.go"]))
		Expect(os.Symlink("a.go", filepath.Join(e.ws, "m/link.go"))).To(Succeed())
		for _, files := range [][]any{{"m/link.go"}, {"m/../m/a.go"}, {"m\\a.go"}, {"other.txt"}} {
			r, err := e.call(catalog.ProjectFormatModelName, map[string]any{"files": files})
			Expect(err).NotTo(HaveOccurred())
			Expect(r.OK).To(BeFalse(), "%v was accepted", files)
		}
		Expect(read(e, "m/a.go")).To(Equal(goFiles["m/a.go"]))
	})
})
