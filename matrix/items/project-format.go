package items

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/projectformat"
	"github.com/galaxy-stack/conform/core/schema"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/filehash"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The project-format items (PF01–PF16) check the project.format extension
// tool of seed "Bounded project formatting lifecycle". They start the host
// under test themselves with the extension flags offered in initialize, so
// they are not applicable to a host that does not advertise
// project_format_v1 (and, for the Go fixtures, project_format_go_v1). Their
// fixtures run the host's real formatters: gofmt and rustfmt on stdin.

// Go fixtures: an unformatted file, its gofmt output, a formatted file and
// a syntax error, under one go.mod.
const (
	pfGoMod      = "module example.com/m\n\ngo 1.22\n"
	pfGoRaw      = "package m\nfunc A( ) int {return 1}\n"
	pfGoDone     = "package m\n\nfunc A() int { return 1 }\n"
	pfGoRawC     = "package m\nfunc C( ) int {return 3}\n"
	pfGoDoneC    = "package m\n\nfunc C() int { return 3 }\n"
	pfGoFormated = "package m\n\nfunc B() int { return 2 }\n"
	pfGoBroken   = "package m\nfunc (\n"
)

func pfGoWorkspace() map[string]string {
	return map[string]string{"m/go.mod": pfGoMod, "m/a.go": pfGoRaw, "m/b.go": pfGoFormated, "m/c.go": pfGoRawC,
		"m/u.go": pfGoRaw, "m/bad.go": pfGoBroken}
}

func pfItem(n int, name, title, guarantee string, keys ...string) matrix.Item {
	return matrix.Item{ID: matrix.FormatBase + n, Name: name, Area: "project-format", Title: title, Scope: matrix.ScopeHost,
		Tools: []string{catalog.ProjectFormatID}, Guarantees: keys, Contract: "hosts/wire/PROTOCOL.md#extensions", Guarantee: guarantee}
}

// Rust fixtures: one source in a crate of edition 2015, where async is a
// name, and in one of edition 2021, where it is a keyword; a crate with its
// own rustfmt.toml.
const (
	pfRustRaw       = "fn f() { let async=1; }\n"
	pfRustDone      = "fn f() {\n    let async = 1;\n}\n"
	pfRustOwnConfig = "fn g( ) {}\n"
)

func pfRustWorkspace() map[string]string {
	cargo := func(name, edition string) string {
		return "[package]\nname = \"" + name + "\"\nversion = \"0.1.0\"\nedition = \"" + edition + "\"\n"
	}
	return map[string]string{
		"r15/Cargo.toml": cargo("r15", "2015"), "r15/src/lib.rs": pfRustRaw,
		"r21/Cargo.toml": cargo("r21", "2021"), "r21/src/lib.rs": pfRustRaw,
		"rc/Cargo.toml": cargo("rc", "2021"), "rc/rustfmt.toml": "max_width = 20\n", "rc/src/lib.rs": pfRustOwnConfig,
	}
}

// Python fixtures: one source under a pyproject.toml without [tool.ruff],
// one whose [tool.ruff] extends another file, one without target-version
// and one Ruff supports.
const (
	pfPyRaw  = "x = [1,2 ,3]\n"
	pfPyDone = "x = [1, 2, 3]\n"
)

func pfPythonWorkspace() map[string]string {
	return map[string]string{
		"p1/pyproject.toml": "[project]\nname = \"p1\"\n", "p1/a.py": pfPyRaw,
		"p2/pyproject.toml": "[tool.ruff]\ntarget-version = \"py311\"\nextend = \"../base.toml\"\n", "p2/a.py": pfPyRaw,
		"p3/pyproject.toml": "[tool.ruff]\n", "p3/a.py": pfPyRaw,
		"p4/pyproject.toml": "[tool.ruff]\ntarget-version = \"py311\"\n", "p4/a.py": pfPyRaw,
	}
}

// pfStart starts a session with options o on a host that advertises every
// flag of need (the spec does not apply to one that does not) and writes ws
// into its workspace.
func pfStart(c *kit.TestContext, o kit.FormatOptions, ws map[string]string, need ...string) *kit.FormatSession {
	GinkgoHelper()
	s := kit.StartFormat(c, o)
	s.NeedFormat(need...)
	s.Write(ws)
	return s
}

// pfGo starts a session on the Go fixture for a host that advertises both
// flags.
func pfGo(c *kit.TestContext, o kit.FormatOptions) *kit.FormatSession {
	GinkgoHelper()
	return pfStart(c, o, pfGoWorkspace(), catalog.FlagProjectFormat, catalog.FlagProjectFormatGo)
}

// pfOK calls format_project with args under callID ("" for a new one) and
// expects it to succeed; what names the call in the failure.
func pfOK(s *kit.FormatSession, what, callID string, args map[string]any) kit.FormatCall {
	GinkgoHelper()
	call := s.Format(callID, args)
	Expect(call.Err == nil && call.Result.OK).To(BeTrue(), "%s failed: %v %.300q", what, call.Err, call.Result.Content)
	return call
}

// pfRefused formats path alone and expects a refusal that leaves it
// holding before.
func pfRefused(s *kit.FormatSession, what, path, before string) kit.FormatCall {
	GinkgoHelper()
	call := s.Format("", files(path))
	s.RefusedWithoutWrite(what, call, map[string]string{path: before})
	return call
}

// pfNotRunAgain calls callID again on m/a.go, which holds pfGoRaw, and
// expects the file unchanged: a mutating job is never run again.
func pfNotRunAgain(s *kit.FormatSession, callID string) {
	GinkgoHelper()
	s.Format(callID, files("m/a.go"))
	Expect(s.Read("m/a.go")).To(Equal(pfGoRaw), "the host ran callId %s a second time; a mutating job is never run again", callID)
}

func files(paths ...string) map[string]any {
	out := make([]any, len(paths))
	for i, p := range paths {
		out[i] = p
	}
	return map[string]any{"files": out}
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// reportFile returns the report line of path.
func reportFile(report map[string]any, path string) map[string]any {
	list, _ := report["files"].([]any)
	for _, x := range list {
		if m, ok := x.(map[string]any); ok && m["path"] == path {
			return m
		}
	}
	return nil
}

var _ = matrix.DescribeItem(pfItem(1, "format-closed-contract", "project_format is one closed, non-idempotent mutating tool with a three-state report",
	"A host MUST refuse project.format arguments outside its closed input schema, answer a report that satisfies its output schema with a three-state stateChanged, and run one callId at most once.", "PF01", "PF11"),
	func(c *kit.TestContext) {
		c.It("an undeclared property is refused and a valid call answers the closed three-state report", "PF01 LPF01", func() {
			s := pfGo(c, kit.FormatOptions{})
			call := s.Format("", map[string]any{"files": []any{"m/a.go"}, "write": true})
			s.RefusedWithoutWrite("an undeclared property", call, map[string]string{"m/a.go": pfGoRaw})
			call = pfOK(s, "formatting one unformatted Go file", "", files("m/a.go"))
			var v any
			Expect(json.Unmarshal([]byte(call.Result.Content), &v)).To(Succeed())
			Expect(schema.NewValidator().Validate(catalog.ProjectFormat().OutputSchema, v)).To(Succeed(), "the report does not satisfy project.format's output schema: %.300q", call.Result.Content)
			Expect(call.Result.CanonicalToolID).To(Equal(catalog.ProjectFormatID))
		})
		c.It("a callId runs once: calling it again answers its job without formatting again", "PF01 PF11 LPF01", func() {
			s := pfGo(c, kit.FormatOptions{})
			pfOK(s, "the first call", "pf-once", files("m/a.go"))
			Expect(s.Read("m/a.go")).To(Equal(pfGoDone))
			s.Write(map[string]string{"m/a.go": pfGoRaw})
			pfNotRunAgain(s, "pf-once")
		})
	})

var _ = matrix.DescribeItem(pfItem(2, "format-capability-gate", "missing capability, missing Go flag and denied approval reject without dispatch",
	"A host MUST NOT run project.format unless initialize offered and it advertised project_format_v1, MUST refuse the Go adapter (explicit or inferred) without project_format_go_v1, and MUST NOT dispatch a denied call.", "PF02"),
	func(c *kit.TestContext) {
		c.It("without the offered flag nothing is advertised and nothing runs", "PF02 LPF02", func() {
			pfStart(c, kit.FormatOptions{}, nil, catalog.FlagProjectFormat) // the item applies to a host with the extension
			s := pfStart(c, kit.FormatOptions{Offer: []string{}}, pfGoWorkspace())
			Expect(s.Host.Init.Extensions).To(BeEmpty(), "initialize offered no extension but the host advertised %v", s.Host.Init.Extensions)
			pfRefused(s, "format_project without project_format_v1", "m/a.go", pfGoRaw)
		})
		c.It("Go, explicit or inferred, needs project_format_go_v1", "PF02 LPF02", func() {
			s := pfStart(c, kit.FormatOptions{Offer: []string{catalog.FlagProjectFormat}}, pfGoWorkspace(), catalog.FlagProjectFormat)
			Expect(s.Host.Init.Extensions).NotTo(ContainElement(catalog.FlagProjectFormatGo), "the host advertised a flag initialize did not offer")
			for _, args := range []map[string]any{files("m/a.go"), {"adapter": "go", "files": []any{"m/a.go"}}} {
				call := s.Format("", args)
				s.RefusedWithoutWrite("a Go call without project_format_go_v1", call, map[string]string{"m/a.go": pfGoRaw})
				if job := s.Observe(call.CallID); job != nil {
					Expect(job.StateChanged).To(Equal(projectformat.Unchanged), "a refused call's job says stateChanged %q", job.StateChanged)
				}
			}
		})
		c.It("a denied approval dispatches nothing", "PF02 LPF02", func() {
			deny := func(context.Context, wire.ApprovalParams) (wire.ApprovalDecision, error) {
				return wire.ApprovalDecision{Approved: false, Scope: "once", Reason: "The check denies every call."}, nil
			}
			s := pfGo(c, kit.FormatOptions{ApprovalProfile: "strict", Approve: deny})
			pfRefused(s, "a denied call", "m/a.go", pfGoRaw)
		})
	})

var _ = matrix.DescribeItem(pfItem(3, "format-path-rules", "recipe roots, cross-root, traversal, separators, control characters and extension mismatch fail closed",
	"A host MUST format only files under one nearest recipe root and refuse cross-root files, traversal, Windows separators, control characters, NUL and extension mismatches without writing.", "PF03"),
	func(c *kit.TestContext) {
		c.It("explicit and auto adapters pick the nearest recipe root", "PF03 LPF03", func() {
			s := pfGo(c, kit.FormatOptions{})
			s.Write(map[string]string{"m/sub/go.mod": "module example.com/m/sub\n\ngo 1.22\n", "m/sub/c.go": pfGoRawC})
			call := pfOK(s, "an explicit go call", "", map[string]any{"adapter": "go", "files": []any{"m/a.go"}})
			Expect(strings.TrimSuffix(call.Report["recipeRoot"].(string), "/")).To(Equal("m"))
			call = pfOK(s, "an auto call in a nested module", "", map[string]any{"cwd": "m/sub", "files": []any{"m/sub/c.go"}})
			Expect(strings.TrimSuffix(call.Report["recipeRoot"].(string), "/")).To(Equal("m/sub"), "the nearest go.mod of m/sub/c.go is m/sub/go.mod")
		})
		c.It("cross-root, traversal, separators, control characters, NUL and mismatches are refused without writing", "PF03 LPF03", func() {
			s := pfGo(c, kit.FormatOptions{})
			s.Write(map[string]string{"m/sub/go.mod": "module example.com/m/sub\n\ngo 1.22\n", "m/sub/c.go": pfGoRawC})
			before := map[string]string{"m/a.go": pfGoRaw, "m/sub/c.go": pfGoRawC}
			for what, args := range map[string]map[string]any{
				"a file of another recipe root": files("m/a.go", "m/sub/c.go"),
				"a cwd of another recipe root":  {"cwd": "m/sub", "files": []any{"m/a.go"}},
				"a '..' segment":                files("m/sub/../a.go"),
				"a Windows separator":           files("m\\a.go"),
				"a control character":           files("m/a\x01.go"),
				"a NUL":                         files("m/a\x00.go"),
				"an absolute path":              files(filepath.Join(s.Workspace, "m", "a.go")),
				"an extension mismatch":         {"adapter": "rust", "files": []any{"m/a.go"}},
				"an unsupported extension":      files("m/go.mod"),
			} {
				s.RefusedWithoutWrite(what, s.Format("", args), before)
			}
		})
	})

var _ = matrix.DescribeItem(pfItem(4, "format-target-rules", "too many, duplicate, oversized, unreadable, symlink and non-regular targets are refused without writing",
	"A host MUST refuse more than 8 files, duplicates, oversized, unreadable, symbolic-link and non-regular targets before writing anything.", "PF04"),
	func(c *kit.TestContext) {
		c.It("each unsafe target is refused and nothing is written", "PF04 LPF04", func() {
			s := pfGo(c, kit.FormatOptions{})
			links := os.Symlink("a.go", filepath.Join(s.Workspace, "m", "link.go")) == nil &&
				os.Symlink("m", filepath.Join(s.Workspace, "linkdir")) == nil
			Expect(os.Mkdir(filepath.Join(s.Workspace, "m", "dir.go"), 0o755)).To(Succeed())
			big := pfWriteRepeated(s, "m/big.go", "package m\n", "var   x0 = 1\n", 40<<20/13)
			many := make([]string, 9)
			for i := range many {
				many[i] = "m/f" + string(rune('0'+i)) + ".go"
				s.Write(map[string]string{many[i]: pfGoRaw})
			}
			before := map[string]string{"m/a.go": pfGoRaw, many[0]: pfGoRaw}
			cases := map[string]map[string]any{
				"nine files":     files(many...),
				"a duplicate":    files("m/a.go", "m/a.go"),
				"a 40 MiB file":  files("m/big.go"),
				"a missing file": files("m/none.go"),
				"a directory":    files("m/dir.go"),
			}
			if links {
				cases["a symbolic link"] = files("m/link.go")
				cases["a file below a symbolic link"] = files("linkdir/a.go")
				cases["a symbolic link beside a file"] = files("m/a.go", "m/link.go")
			} else {
				kit.Unchecked("symbolic-link targets: this system does not let the harness create symbolic links")
			}
			for what, args := range cases {
				s.RefusedWithoutWrite(what, s.Format("", args), before)
			}
			Expect(filehash.SHA256(filepath.Join(s.Workspace, "m", "big.go"))).To(Equal(big), "the oversized file was written")
		})
	})

// pfWriteRepeated writes head and then n copies of line to rel in the
// session's workspace, a block at a time, and returns the file's SHA-256:
// a target larger than any host's bound costs the harness no memory of its
// size.
func pfWriteRepeated(s *kit.FormatSession, rel, head, line string, n int) string {
	GinkgoHelper()
	f, err := os.Create(filepath.Join(s.Workspace, filepath.FromSlash(rel)))
	Expect(err).NotTo(HaveOccurred())
	h := sha256.New()
	w := io.MultiWriter(f, h)
	const perBlock = 4096
	block := strings.Repeat(line, perBlock)
	_, err = io.WriteString(w, head)
	for ; err == nil && n >= perBlock; n -= perBlock {
		_, err = io.WriteString(w, block)
	}
	if err == nil {
		_, err = io.WriteString(w, strings.Repeat(line, n))
	}
	Expect(err).NotTo(HaveOccurred())
	Expect(f.Close()).To(Succeed())
	return hex.EncodeToString(h.Sum(nil))
}

var _ = matrix.DescribeItem(pfItem(5, "format-rust", "rustfmt runs on stdin with the Cargo.toml edition; custom rustfmt configuration is unavailable",
	"A host MUST run rustfmt on stdin with the edition of the local Cargo.toml and refuse a project with a custom rustfmt configuration without writing.", "PF05"),
	func(c *kit.TestContext) {
		c.It("the Cargo.toml edition decides, and rustfmt.toml makes Rust unavailable", "PF05 LPF05", func() {
			s := pfStart(c, kit.FormatOptions{}, pfRustWorkspace(), catalog.FlagProjectFormat)
			call := s.Format("", files("r15/src/lib.rs"))
			if call.Err == nil && !call.Result.OK && call.Result.Error != nil && call.Result.Error.Code == "UNAVAILABLE" && s.Read("r15/src/lib.rs") == pfRustRaw {
				kit.NotApplicable("rustfmt is unavailable on the host: " + call.Result.Error.Message)
			}
			Expect(call.Err == nil && call.Result.OK).To(BeTrue(), "formatting a 2015-edition crate failed: %v %.300q", call.Err, call.Result.Content)
			Expect(s.Read("r15/src/lib.rs")).To(Equal(pfRustDone), "rustfmt's 2015-edition output was not written")
			pfRefused(s, "'async' as a name in a 2021-edition crate", "r21/src/lib.rs", pfRustRaw)
			pfRefused(s, "a crate with rustfmt.toml", "rc/src/lib.rs", pfRustOwnConfig)
		})
	})

var _ = matrix.DescribeItem(pfItem(6, "format-python", "Ruff runs only when installed and configured with a target-version and no extend; otherwise unavailable",
	"A host MUST format Python only with an installed Ruff and a local [tool.ruff] that names target-version and no extend, and otherwise fail without writing, installing or falling back.", "PF06"),
	func(c *kit.TestContext) {
		c.It("missing or extended Ruff configuration fails closed; a missing Ruff is unavailable", "PF06 LPF06", func() {
			s := pfStart(c, kit.FormatOptions{}, pfPythonWorkspace(), catalog.FlagProjectFormat)
			pfRefused(s, "a pyproject.toml without [tool.ruff]", "p1/a.py", pfPyRaw)
			pfRefused(s, "a [tool.ruff] with extend", "p2/a.py", pfPyRaw)
			pfRefused(s, "a [tool.ruff] without target-version", "p3/a.py", pfPyRaw)
			call := s.Format("", files("p4/a.py"))
			if call.Err == nil && call.Result.OK {
				Expect(s.Read("p4/a.py")).To(Equal(pfPyDone), "Ruff's output was not written")
				Expect(call.Report["stateChanged"]).To(Equal(true))
				return
			}
			s.RefusedWithoutWrite("a supported configuration without Ruff", call, map[string]string{"p4/a.py": pfPyRaw})
			Expect(call.Unknown()).To(BeFalse(), "a missing Ruff is a known failure before any write, not an unknown outcome")
			kit.Unchecked("Ruff is not installed for the host; the configured Python project failed without a write: " + call.Result.Summary)
		})
	})

var _ = matrix.DescribeItem(pfItem(7, "format-noop", "an identical candidate is a known no-op without a write",
	"A host MUST report stateChanged false for a file whose formatted text equals its content, and MUST NOT write it.", "PF07"),
	func(c *kit.TestContext) {
		c.It("a formatted file is reported unchanged and is not rewritten", "PF07 LPF07", func() {
			s := pfGo(c, kit.FormatOptions{})
			id := s.Identity("m/b.go")
			time.Sleep(20 * time.Millisecond) // a rewrite gets a later modification time
			call := pfOK(s, "formatting a formatted file", "", files("m/b.go"))
			Expect(call.Report["stateChanged"]).To(Equal(false), "a no-op must be stateChanged false, not %v", call.Report["stateChanged"])
			Expect(reportFile(call.Report, "m/b.go")).To(HaveKeyWithValue("stateChanged", false))
			Expect(s.Identity("m/b.go")).To(Equal(id), "the formatted file was rewritten although its candidate was identical")
			if call.Result.Effects != nil {
				Expect(call.Result.Effects.Writes).To(BeEmpty(), "a no-op attests writes")
			}
		})
	})

var _ = matrix.DescribeItem(pfItem(8, "format-selected-only", "a differing candidate is committed to the selected files only, proving a positive change",
	"A host MUST write the formatter's candidate to each selected file that changed, nothing else, and report stateChanged true with write evidence of exactly those files.", "PF08"),
	func(c *kit.TestContext) {
		c.It("two selected files are formatted, an unselected one is not", "PF08 LPF08", func() {
			s := pfGo(c, kit.FormatOptions{})
			call := pfOK(s, "formatting", "", files("m/a.go", "m/c.go", "m/b.go"))
			Expect(s.Read("m/a.go")).To(Equal(pfGoDone))
			Expect(s.Read("m/c.go")).To(Equal(pfGoDoneC))
			Expect(s.Read("m/b.go")).To(Equal(pfGoFormated))
			Expect(s.Read("m/u.go")).To(Equal(pfGoRaw), "an unselected file was formatted")
			Expect(call.Report["stateChanged"]).To(Equal(true))
			Expect(reportFile(call.Report, "m/a.go")).To(HaveKeyWithValue("stateChanged", true))
			Expect(reportFile(call.Report, "m/b.go")).To(HaveKeyWithValue("stateChanged", false))
			Expect(call.Result.Effects).NotTo(BeNil())
			got := map[string]string{}
			for _, w := range call.Result.Effects.Writes {
				if w.AfterHash != nil {
					got[w.Path] = strings.TrimPrefix(*w.AfterHash, "sha256:")
				}
			}
			Expect(got).To(Equal(map[string]string{"m/a.go": sha(pfGoDone), "m/c.go": sha(pfGoDoneC)}), "write evidence must name exactly the written files with their new hashes")
		})
	})

var _ = matrix.DescribeItem(pfItem(9, "format-guarded-write", "a file changed after planning is never overwritten with a stale candidate",
	"A host MUST compare each file with the bytes its formatter read immediately before writing, and never overwrite a change made after planning.", "PF09"),
	func(c *kit.TestContext) {
		c.It("a change made while the host waits for approval survives", "PF09 LPF09", func() {
			changed := "package m\nfunc A( ) int {return 9}\n"
			var asked atomic.Bool
			var ws atomic.Value
			edit := func(_ context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
				asked.Store(true)
				if dir, ok := ws.Load().(string); ok {
					_ = os.WriteFile(filepath.Join(dir, "m", "a.go"), []byte(changed), 0o644)
				}
				return wire.ApprovalDecision{Approved: true, Scope: "once", Reason: "The check allows it after changing m/a.go."}, nil
			}
			s := pfGo(c, kit.FormatOptions{ApprovalProfile: "strict", Approve: edit})
			ws.Store(s.Workspace)
			call := s.Format("", files("m/a.go"))
			if !asked.Load() {
				kit.NotApplicable("the host asked no approval under the strict profile, so no change could be made between plan and write")
			}
			got := s.Read("m/a.go")
			Expect(got).To(BeElementOf(changed, "package m\n\nfunc A() int { return 9 }\n"),
				"m/a.go holds %q: the host wrote a candidate of the content it planned with over a later change", got)
			if got == changed && call.Err == nil && call.Result.OK {
				Expect(reportFile(call.Report, "m/a.go")["stateChanged"]).NotTo(Equal(true), "the report claims a write that did not happen")
			}
		})
	})

var _ = matrix.DescribeItem(pfItem(10, "format-no-false-completion", "a formatter failure in a batch never claims known full completion",
	"A host MUST NOT report a batch with a failed file as a complete success; a batch that wrote and then failed is unknown.", "PF10"),
	func(c *kit.TestContext) {
		c.It("a syntax error beside an unformatted file is no success", "PF10 LPF10", func() {
			s := pfGo(c, kit.FormatOptions{})
			call := s.Format("", files("m/a.go", "m/bad.go"))
			Expect(call.Err == nil && call.Result.OK).To(BeFalse(), "a batch with a syntax error reported success: %.300q", call.Result.Content)
			Expect(s.Read("m/bad.go")).To(Equal(pfGoBroken))
			if s.Read("m/a.go") != pfGoRaw {
				Expect(call.Unknown()).To(BeTrue(), "m/a.go was written and the batch failed, but the outcome is not unknown")
			}
		})
	})

var _ = matrix.DescribeItem(pfItem(11, "format-job-recovery", "an interrupted call is observed as its original job from a fresh host and never replayed",
	"A host MUST keep each call's job durable, answer it through job/observe from a fresh process on the same storeDir, report an unfinished job as unknown and never run it again.", "PF11", "PF12"),
	func(c *kit.TestContext) {
		c.It("a host that crashes while it waits for approval leaves an unknown job that is not run again", "PF11 PF12 LPF11", func() {
			asked := make(chan struct{}, 1)
			wait := func(ctx context.Context, _ wire.ApprovalParams) (wire.ApprovalDecision, error) {
				asked <- struct{}{}
				<-ctx.Done()
				return wire.ApprovalDecision{}, ctx.Err()
			}
			s := pfGo(c, kit.FormatOptions{ApprovalProfile: "strict", Approve: wait})
			done := make(chan struct{})
			go func() {
				defer close(done)
				raw, _ := json.Marshal(files("m/a.go"))
				_, _ = s.Host.Client().Execute(context.Background(), wire.ExecuteParams{CallID: "pf-stopped", ModelName: catalog.ProjectFormatModelName,
					Arguments: raw, IdempotencyKey: "idem-pf-stopped", TimeoutMs: 60000, Context: wire.RunContext{RunID: "pf-run", TaskID: "pf-task", Mode: port.ModeAuto}})
			}()
			select {
			case <-asked:
			case <-done:
			case <-time.After(30 * time.Second):
			}
			s.Crash()
			<-done
			fresh := s.Fresh(kit.FormatOptions{})
			Expect(fresh.Read("m/a.go")).To(Equal(pfGoRaw))
			job := fresh.Observe("pf-stopped")
			if job == nil {
				kit.Unchecked("the host created no job before it was stopped; the replay check does not apply")
				return
			}
			Expect(job.CallID).To(Equal("pf-stopped"))
			if job.Status == projectformat.StatusRunning {
				Expect(job.StateChanged).To(Equal(projectformat.Unknown), "a job that never finished says stateChanged %q; a missing receipt is unknown", job.StateChanged)
			}
			pfNotRunAgain(fresh, "pf-stopped")
		})
	})

var _ = matrix.DescribeItem(pfItem(12, "format-durable-report", "the durable job and the synchronous result carry the same mutation truth",
	"A host MUST persist each job's terminal report before answering and return the same jobId, stateChanged and per-file truth through job/observe, also from a fresh host.", "PF12"),
	func(c *kit.TestContext) {
		c.It("a fresh host observes the job the result named", "PF12 LPF12", func() {
			s := pfGo(c, kit.FormatOptions{})
			call := pfOK(s, "formatting", "pf-durable", files("m/a.go", "m/b.go"))
			_ = s.Host.Close()
			job := s.Fresh(kit.FormatOptions{}).Observe("pf-durable")
			Expect(job).NotTo(BeNil(), "a fresh host on the same storeDir has no job for the call")
			Expect(job.JobID).To(Equal(call.Report["jobId"]))
			b, _ := json.Marshal(job.StateChanged)
			Expect(string(b)).To(Equal("true"), "the durable report says %s, the result said true", b)
			for _, f := range job.Files {
				line := reportFile(call.Report, f.Path)
				Expect(line).NotTo(BeNil(), "the job names %s, which the result did not", f.Path)
				fb, _ := json.Marshal(f.StateChanged)
				lb, _ := json.Marshal(line["stateChanged"])
				Expect(string(fb)).To(Equal(string(lb)), "%s: the job and the result disagree", f.Path)
			}
		})
	})

var _ = matrix.DescribeItem(pfItem(13, "format-authority", "results attest only the extension profile's effects; failures attest no write",
	"A host MUST attest for project.format only approval, state_version and write, write evidence only for committed files, none on a failure, and keep the core tools' profile unchanged.", "PF13"),
	func(c *kit.TestContext) {
		c.It("effects stay within the extension profile", "PF13 LPF13", func() {
			s := pfGo(c, kit.FormatOptions{})
			caps, _ := effects.ExtensionCapabilities(catalog.ProjectFormatID)
			ok := pfOK(s, "formatting", "", files("m/a.go"))
			Expect(effects.CheckCapabilities(ok.Result, caps)).To(Succeed())
			bad := s.Format("", files("m/bad.go"))
			Expect(bad.Err == nil && !bad.Result.OK).To(BeTrue())
			if e := bad.Result.Effects; e != nil {
				Expect(e.Writes).To(BeEmpty(), "a failed call attests writes")
				Expect(e.StateVersion).To(BeEmpty(), "a failed call attests a state version")
			}
			var ts port.ToolSet
			ctx, cancel := context.WithTimeout(c.Ctx(), 30*time.Second)
			defer cancel()
			Expect(s.Host.Client().Call(ctx, wire.MethodToolsList, struct{}{}, 30*time.Second, &ts)).To(Succeed())
			for id, got := range ts.EffectCapabilities {
				if want, core := effects.CoreCapabilities(id); core {
					Expect(got).To(ConsistOf(want), "the core profile of %s changed in a session with extensions", id)
				}
			}
		})
	})

var _ = matrix.DescribeItem(pfItem(14, "format-failure-kind", "failures name their exact kind, carry no validation summary and stay bounded",
	"A host MUST fail a project.format call with a specific error code and a bounded message, and never report test counts or validation results.", "PF14"),
	func(c *kit.TestContext) {
		c.It("a syntax error is a named, bounded failure", "PF14 LPF14", func() {
			s := pfGo(c, kit.FormatOptions{})
			broken := "package m\n" + strings.Repeat("func (\n", 20000)
			s.Write(map[string]string{"m/bad.go": broken})
			call := s.Format("", files("m/bad.go"))
			Expect(call.Err == nil && !call.Result.OK).To(BeTrue(), "a syntax error did not fail as an ordinary result")
			Expect(call.Result.Error).NotTo(BeNil())
			Expect(call.Result.Error.Code).To(MatchRegexp(`^[A-Z][A-Z_]+$`))
			Expect(len(call.Result.Content)).To(BeNumerically("<=", 32000), "the failure content is not bounded")
			Expect(len(call.Result.Error.Message)).To(BeNumerically("<=", 16000), "the failure message is not bounded")
			if e := call.Result.Effects; e != nil {
				Expect(e.Validations).To(BeEmpty(), "a format failure reports validations")
			}
			Expect(regexp.MustCompile(`(?i)\b\d+ (tests?|passed|failed)\b`).MatchString(call.Result.Content)).To(BeFalse(), "the failure reports test counts")
		})
	})

var _ = matrix.DescribeItem(pfItem(15, "format-core-unchanged", "offering the extension leaves the core tools and unrelated languages unchanged",
	"A host MUST offer format_project to the model once the extension is negotiated, keep its core tool set, routing and effect capabilities identical whether or not it is, and refuse files of other languages.", "PF15"),
	func(c *kit.TestContext) {
		c.It("tools/list adds format_project to the same core tools when the extension is offered", "PF15 LPF15", func() {
			with := pfGo(c, kit.FormatOptions{})
			without := kit.StartFormat(c, kit.FormatOptions{Offer: []string{}})
			list := func(s *kit.FormatSession) port.ToolSet {
				var ts port.ToolSet
				ctx, cancel := context.WithTimeout(c.Ctx(), 30*time.Second)
				defer cancel()
				Expect(s.Host.Client().Call(ctx, wire.MethodToolsList, struct{}{}, 30*time.Second, &ts)).To(Succeed())
				return ts
			}
			a, b := list(with), list(without)
			// Seed: "Expose a model-facing project_format"; offered, it is
			// in the model's tool set with its own routing and profile.
			Expect(a.CanonicalToolIDs).To(HaveKeyWithValue(catalog.ProjectFormatModelName, catalog.ProjectFormatID), "the negotiated extension is not offered to the model in tools/list")
			Expect(b.CanonicalToolIDs).NotTo(HaveKey(catalog.ProjectFormatModelName), "format_project is listed although the extension was not negotiated")
			core := func(ts port.ToolSet) (map[string]string, map[string][]string, []port.ToolDefinition) {
				ids, caps := map[string]string{}, map[string][]string{}
				var defs []port.ToolDefinition
				for name, id := range ts.CanonicalToolIDs {
					if name != catalog.ProjectFormatModelName {
						ids[name] = id
					}
				}
				for id, cs := range ts.EffectCapabilities {
					if id != catalog.ProjectFormatID {
						caps[id] = cs
					}
				}
				for _, d := range ts.Definitions {
					if d.Function.Name != catalog.ProjectFormatModelName {
						defs = append(defs, d)
					}
				}
				return ids, caps, defs
			}
			ai, ac, ad := core(a)
			bi, bc, bd := core(b)
			Expect(ai).To(Equal(bi), "the core routing differs when the extension is offered")
			Expect(ac).To(Equal(bc), "the core effect capabilities differ when the extension is offered")
			ja, _ := json.Marshal(ad)
			jb, _ := json.Marshal(bd)
			Expect(string(ja)).To(Equal(string(jb)), "the core definitions differ when the extension is offered")
			Expect(with.Host.Init.Tools).To(Equal(without.Host.Init.Tools))
			with.Write(map[string]string{"m/x.ts": "let  x=1\n"})
			pfRefused(with, "a TypeScript file", "m/x.ts", "let  x=1\n")
		})
	})

var _ = matrix.DescribeItem(pfItem(16, "format-native-fixtures", "real formatter fixtures: formatted, syntax error and missing formatter",
	"A host MUST format with its real installed formatter, fail a syntax error without writing, and fail cleanly without writing when the formatter is not installed.", "PF16"),
	func(c *kit.TestContext) {
		c.It("real gofmt formats, fails on a syntax error and is unavailable when missing", "PF16 LPF16", func() {
			s := pfGo(c, kit.FormatOptions{})
			call := pfOK(s, "the gofmt fixture", "", files("m/a.go"))
			Expect(s.Read("m/a.go")).To(Equal(pfGoDone))
			Expect(call.Report["stateChanged"]).To(Equal(true), "a rewritten file must be stateChanged true")
			pfRefused(s, "a syntax error", "m/bad.go", pfGoBroken)
			missing := pfGo(c, kit.FormatOptions{WithoutFormatter: "gofmt"})
			call = pfRefused(missing, "gofmt missing from PATH", "m/a.go", pfGoRaw)
			Expect(call.Unknown()).To(BeFalse(), "a missing formatter is a known failure before any write, not an unknown outcome")
		})
	})
