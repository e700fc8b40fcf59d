package mutants_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
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
			h.send(p)
			Expect(os.WriteFile(filepath.Join(h.ws, "m", "a.go"), []byte(fmtRaw), 0o644)).To(Succeed())
			h.send(p)
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
	"format-ignore-go-flag": func(name string) {
		su := formatSetup()
		su.params = func(p *wire.InitializeParams) { p.Extensions = []string{catalog.FlagProjectFormat} }
		ref, mut := both(name, su)
		for _, h := range []*host{ref, mut} {
			h.result(catalog.ProjectFormatModelName, fmtArgs("m/a.go"))
			Expect(h.read("m/a.go") == fmtDone).To(Equal(h == mut), "%s formatted Go without project_format_go_v1", h)
		}
	},
	"format-cross-root": func(name string) {
		su := formatSetup()
		su.files["m/sub/go.mod"] = "module example.com/m/sub\n\ngo 1.22\n"
		su.files["m/sub/c.go"] = fmtRaw
		ref, mut := both(name, su)
		for _, h := range []*host{ref, mut} {
			r := h.result(catalog.ProjectFormatModelName, fmtArgs("m/a.go", "m/sub/c.go"))
			Expect(r.OK).To(Equal(h == mut), "%s: %s", h, r.Content)
		}
	},
	"format-fixed-edition": func(name string) {
		su := formatSetup()
		su.files["r/Cargo.toml"] = "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2015\"\n"
		su.files["r/src/lib.rs"] = "fn f() { let async=1; }\n"
		su.passEnv = rustToolchainEnv()
		ref, mut := both(name, su)
		for _, h := range []*host{ref, mut} {
			r := h.result(catalog.ProjectFormatModelName, fmtArgs("r/src/lib.rs"))
			if h == ref && !r.OK && r.Error.Code == "UNAVAILABLE" {
				Skip("rustfmt is not available to the hosts: " + r.Error.Message)
			}
			Expect(r.OK).To(Equal(h == ref), "%s: %s", h, r.Content)
		}
	},
	"format-unavailable-as-noop": func(name string) {
		su := formatSetup()
		su.files["p/pyproject.toml"] = "[tool.ruff]\ntarget-version = \"py311\"\n"
		su.files["p/a.py"] = "x = [1,2 ,3]\n"
		ref, mut := both(name, su)
		r := ref.result(catalog.ProjectFormatModelName, fmtArgs("p/a.py"))
		if r.OK {
			Skip("Ruff is installed for the hosts, so nothing is unavailable")
		}
		Expect(r.Error.Code).To(Equal("UNAVAILABLE"), "reference: %s", r.Content)
		Expect(mut.result(catalog.ProjectFormatModelName, fmtArgs("p/a.py")).OK).To(BeTrue(), "the mutant reports success")
	},
	"format-rewrite-identical": func(name string) {
		su := formatSetup()
		su.files["m/b.go"] = fmtDone
		ref, mut := both(name, su)
		for _, h := range []*host{ref, mut} {
			before, err := os.Lstat(h.path("m/b.go"))
			Expect(err).NotTo(HaveOccurred())
			h.ok(catalog.ProjectFormatModelName, fmtArgs("m/b.go"))
			after, err := os.Lstat(h.path("m/b.go"))
			Expect(err).NotTo(HaveOccurred())
			Expect(os.SameFile(before, after)).To(Equal(h == ref), "%s replaced the identical file", h)
		}
	},
	"format-report-not-durable": func(name string) {
		ref, mut := both(name, formatSetup())
		for _, h := range []*host{ref, mut} {
			p := params(catalog.ProjectFormatModelName, fmtArgs("m/a.go"))
			h.send(p)
			_ = h.client.Close(5 * time.Second)
			f := h.fresh()
			var r wire.JobObserveResult
			Expect(f.client.Call(context.Background(), wire.MethodJobObserve, wire.JobObserveParams{CallID: p.CallID}, 10*time.Second, &r)).To(Succeed())
			Expect(r.Job).NotTo(BeNil())
			Expect(string(r.Job.StateChanged) == "true").To(Equal(h == ref), "%s: the fresh host observes stateChanged %q", h, r.Job.StateChanged)
		}
	},
	"format-failure-write-evidence": func(name string) {
		ref, mut := both(name, formatSetup())
		for _, h := range []*host{ref, mut} {
			r := h.result(catalog.ProjectFormatModelName, fmtArgs("m/bad.go"))
			Expect(r.OK).To(BeFalse())
			Expect(r.Effects != nil && len(r.Effects.Writes) > 0).To(Equal(h == mut), "%s: %+v", h, r.Effects)
		}
	},
	"format-test-counts": func(name string) {
		ref, mut := both(name, formatSetup())
		for _, h := range []*host{ref, mut} {
			r := h.result(catalog.ProjectFormatModelName, fmtArgs("m/bad.go"))
			Expect(r.OK).To(BeFalse())
			Expect(strings.Contains(r.Content, "tests passed")).To(Equal(h == mut), "%s: %s", h, r.Content)
		}
	},
	"format-hidden-from-model": func(name string) {
		ref, mut := both(name, formatSetup())
		for _, h := range []*host{ref, mut} {
			ts, err := h.client.ToolSet(context.Background())
			Expect(err).NotTo(HaveOccurred())
			_, listed := ts.CanonicalToolIDs[catalog.ProjectFormatModelName]
			Expect(listed).To(Equal(h == ref), "%s", h)
		}
	},
}

// rustToolchainEnv names the Rust toolchain variables a host needs to run
// a rustup-installed rustfmt under its own HOME, setting RUSTUP_HOME and
// CARGO_HOME for the spec from the test's home when they are unset.
func rustToolchainEnv() []string {
	home, _ := os.UserHomeDir()
	for _, v := range []struct{ name, dir string }{{"RUSTUP_HOME", ".rustup"}, {"CARGO_HOME", ".cargo"}} {
		if os.Getenv(v.name) == "" && home != "" {
			if fi, err := os.Stat(filepath.Join(home, v.dir)); err == nil && fi.IsDir() {
				GinkgoT().Setenv(v.name, filepath.Join(home, v.dir))
			}
		}
	}
	return []string{"RUSTUP_HOME", "CARGO_HOME"}
}
