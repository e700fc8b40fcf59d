package mutants_test

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/gomega"
)

var _ = addSpecs(formatSpecs)

// Go fixtures of the project-format specs.
const (
	fmtRaw    = "package m\nfunc A( ) int {return 1}\n"
	fmtDone   = "package m\n\nfunc A() int { return 1 }\n"
	fmtBroken = "package m\nfunc (\n"
)

// formatSetup offers both project-format flags over a Go module.
func formatSetup() setup {
	return setup{
		files: map[string]string{"m/go.mod": "module example.com/m\n\ngo 1.22\n", "m/a.go": fmtRaw, "m/u.go": fmtRaw, "m/bad.go": fmtBroken},
		params: func(p *wire.InitializeParams) {
			p.Extensions = []string{catalog.FlagProjectFormat, catalog.FlagProjectFormatGo}
		},
	}
}

func fmtArgs(files ...string) map[string]any {
	out := make([]any, len(files))
	for i, f := range files {
		out[i] = f
	}
	return map[string]any{"files": out}
}

// formatSpecs are the wire-level specs of the project-format mutants
// (items PF01–PF16).
var formatSpecs = map[string]func(name string){
	"format-write-without-compare": func(name string) {
		su := formatSetup()
		changed := "package m\nfunc A( ) int {return 9}\n"
		su.params = func(p *wire.InitializeParams) {
			p.Extensions = []string{catalog.FlagProjectFormat, catalog.FlagProjectFormatGo}
			p.ApprovalProfile = "strict"
		}
		su.onApproval = func(ws string) { _ = os.WriteFile(filepath.Join(ws, "m", "a.go"), []byte(changed), 0o644) }
		ref, mut := both(name, su)
		for _, h := range []*host{ref, mut} {
			_, _ = h.call(catalog.ProjectFormatModelName, fmtArgs("m/a.go"))
			Expect(h.asked()).To(Equal(1), "%s asked for approval", h)
			Expect(h.read("m/a.go") == fmtDone).To(Equal(h == mut), "%s wrote the stale candidate: %q", h, h.read("m/a.go"))
		}
	},
	"format-unselected-files": func(name string) {
		ref, mut := both(name, formatSetup())
		for _, h := range []*host{ref, mut} {
			h.ok(catalog.ProjectFormatModelName, fmtArgs("m/a.go"))
			Expect(h.read("m/u.go") == fmtDone).To(Equal(h == mut), "%s formatted the unselected m/u.go", h)
		}
	},
	"format-success-on-partial-failure": func(name string) {
		ref, mut := both(name, formatSetup())
		for _, h := range []*host{ref, mut} {
			r := h.result(catalog.ProjectFormatModelName, fmtArgs("m/a.go", "m/bad.go"))
			Expect(r.OK).To(Equal(h == mut), "%s: %s", h, r.Content)
		}
	},
	"format-retry-mutating-job": func(name string) {
		ref, mut := both(name, formatSetup())
		for _, h := range []*host{ref, mut} {
			p := params(catalog.ProjectFormatModelName, fmtArgs("m/a.go"))
			_, err := h.client.Execute(context.Background(), p)
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(filepath.Join(h.ws, "m", "a.go"), []byte(fmtRaw), 0o644)).To(Succeed())
			_, err = h.client.Execute(context.Background(), p)
			Expect(err).NotTo(HaveOccurred())
			Expect(h.read("m/a.go") == fmtDone).To(Equal(h == mut), "%s ran the callId again", h)
		}
	},
	"format-in-place": func(name string) {
		ref, mut := both(name, formatSetup())
		for _, h := range []*host{ref, mut} {
			_, out := h.ok(catalog.ProjectFormatModelName, fmtArgs("m/a.go"))
			Expect(h.read("m/a.go")).To(Equal(fmtDone), "%s", h)
			Expect(out["stateChanged"]).To(Equal(h == ref), "%s reported stateChanged %v for a rewritten file", h, out["stateChanged"])
		}
	},
	"format-symlink-target": func(name string) {
		ref, mut := both(name, formatSetup())
		for _, h := range []*host{ref, mut} {
			Expect(os.Symlink("a.go", filepath.Join(h.ws, "m", "link.go"))).To(Succeed())
			r := h.result(catalog.ProjectFormatModelName, fmtArgs("m/link.go"))
			Expect(r.OK).To(Equal(h == mut), "%s: %s", h, r.Content)
		}
	},
	"format-lost-receipt-false": func(name string) {
		su := formatSetup()
		su.approver = "silent"
		su.params = func(p *wire.InitializeParams) {
			p.Extensions = []string{catalog.FlagProjectFormat, catalog.FlagProjectFormatGo}
			p.ApprovalProfile = "strict"
		}
		ref, mut := both(name, su)
		for _, h := range []*host{ref, mut} {
			p := params(catalog.ProjectFormatModelName, fmtArgs("m/a.go"))
			done := make(chan struct{})
			go func() {
				defer close(done)
				_, _ = h.client.Execute(context.Background(), p)
			}()
			Eventually(h.asked, 10*time.Second, 20*time.Millisecond).Should(Equal(1), "%s asked for approval", h)
			if proc, err := os.FindProcess(h.client.PID()); err == nil {
				_ = proc.Kill() // a crash, not a shutdown: the job never gets its receipt
			}
			<-done
			_ = h.client.Close(time.Second)
			f := h.fresh()
			var r wire.JobObserveResult
			Expect(f.client.Call(context.Background(), wire.MethodJobObserve, wire.JobObserveParams{CallID: p.CallID}, 10*time.Second, &r)).To(Succeed())
			Expect(r.Job).NotTo(BeNil(), "%s kept no job", h)
			Expect(string(r.Job.StateChanged) == "false").To(Equal(h == mut), "%s: stateChanged %q", h, r.Job.StateChanged)
		}
	},
}
