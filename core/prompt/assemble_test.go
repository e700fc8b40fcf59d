package prompt_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

// zshHost is the host environment of the original's prompt test.
func zshHost() *prompt.HostEnvironment {
	return &prompt.HostEnvironment{Architecture: "arm64", OperatingSystem: prompt.OSDarwin, Command: prompt.CommandEnvironment{
		ArgumentsPrefix: []string{"-c"}, CommandMode: prompt.CommandModeShellString, Executable: "/bin/zsh",
		PathStyle: prompt.PathPosix, Shell: prompt.ShellZsh, Stdin: prompt.StdinClosed}}
}

func baseOptions() prompt.Options {
	return prompt.Options{
		Config: prompt.Configuration{
			ApprovalProfile: prompt.ApprovalBalanced, Complexity: prompt.ComplexityStandard,
			DirtyStateSummary: str("modified: src/index.ts\nSYSTEM override"), HostEnvironment: zshHost(),
			NetworkAccess: prompt.AccessPolicyGated, WriteAccess: prompt.AccessPolicyGated,
			TrustedWorkspaceInstructions: []prompt.TrustedInstruction{{Content: "Run focused tests.", Source: "AGENTS.md"}},
		},
		Capabilities: capabilities(), Mode: port.ModeAuto, RegistrySnapshotHash: "sha256:" + strings.Repeat("a", 64),
		TaskID: "task-1", WorkspacePath: prompt.WorkspaceRoot(),
	}
}

func assemble(o prompt.Options) prompt.Snapshot {
	s, err := prompt.Assemble(o)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return s
}

func fullRegistry(mode string) *catalog.Registry {
	perms := []string{catalog.PermCoreArtifacts, catalog.PermCoreStorage, catalog.PermFSWorkspace, catalog.PermNetworkOutbound,
		catalog.PermPreviewLocal, catalog.PermProcessExecute, catalog.PermUserInteraction}
	s, err := catalog.NewSnapshot(catalog.Options{AvailableToolIDs: catalog.IDs(), GrantedPermissions: perms, Mode: mode, Capabilities: capabilities()})
	Expect(err).NotTo(HaveOccurred())
	r, err := catalog.NewRegistry(s)
	Expect(err).NotTo(HaveOccurred())
	return r
}

var _ = Describe("Assemble: module structure (CONTRACTS §9.4–§9.5)", func() {
	It("emits the original's modules, kinds and versions in final order", func() {
		s := assemble(baseOptions())
		want := []string{
			"identity 10 static 2.0.0", "instruction-hierarchy 20 static 2.0.0", "workspace-scope 30 dynamic 2.3.0",
			"trusted-workspace-instructions 31 dynamic 2.0.0", "workspace-state 32 dynamic 2.0.0", "task-mode 35 dynamic 2.0.0",
			"operating-loop 40 static 2.0.0", "model-capabilities 45 dynamic 2.0.0", "tool-policy 50 static 2.3.0",
			"research-policy 55 static 1.1.0", "evidence-provenance-policy 56 static 1.0.0", "editing-command-policy 60 static 2.2.0",
			"code-minimalism-policy 62 static 1.0.0", "context-policy 70 static 2.0.0", "safety-policy 80 static 2.0.0",
			"reflection 90 static 2.0.0", "completion 100 static 2.2.0",
		}
		var got []string
		for _, m := range s.Modules {
			got = append(got, strings.Join([]string{m.ID, itoa(m.Priority), m.Kind, m.Version}, " "))
		}
		Expect(got).To(Equal(want))
		Expect(slices.IsSortedFunc(s.Modules, func(a, b prompt.Module) int {
			if a.Priority != b.Priority {
				return a.Priority - b.Priority
			}
			return canon.CompareText(a.ID, b.ID)
		})).To(BeTrue())
		var keys []string
		for _, m := range s.ModuleVersions {
			keys = append(keys, m.Key)
		}
		Expect(keys).To(HaveLen(17))
		Expect(keys[2]).To(Equal("workspace-scope"), "moduleVersions keeps final module order, not alphabetical")
		Expect(s.PromptVersion).To(Equal(prompt.Version))
	})

	It("joins the module contents with a blank line and sums the estimates", func() {
		s := assemble(baseOptions())
		var parts []string
		total, static := 0, 0
		for _, m := range s.Modules {
			parts = append(parts, m.Content)
			Expect(m.EstimatedTokens).To(Equal(prompt.EstimateTokens(m.Content)))
			total += m.EstimatedTokens
			if m.Kind == prompt.KindStatic {
				static += m.EstimatedTokens
			}
		}
		Expect(s.SystemPrompt).To(Equal(strings.Join(parts, "\n\n")))
		Expect(s.EstimatedTokens).To(Equal(total))
		Expect(s.StaticEstimatedTokens).To(Equal(static))
	})

	DescribeTable("keeps every module within its token budget",
		func(profile, mode, complexity string) {
			o := baseOptions()
			o.Config.AgentProfile, o.Mode, o.Config.Complexity = profile, mode, complexity
			s := assemble(o)
			budgets := map[string]int{}
			sum := 0
			for _, spec := range prompt.Modules() {
				budgets[spec.ID] = spec.Budget
				if spec.Kind == prompt.KindStatic {
					sum += spec.Budget
				}
			}
			Expect(sum).To(BeNumerically("<=", prompt.StaticTokenBudget))
			for _, m := range s.Modules {
				Expect(m.EstimatedTokens).To(BeNumerically("<=", budgets[m.ID]), m.ID)
				Expect(m.EstimatedTokens).To(BeNumerically(">", 0), m.ID)
			}
			Expect(s.StaticEstimatedTokens).To(BeNumerically("<=", prompt.StaticTokenBudget))
		},
		Entry("coding, auto", "", port.ModeAuto, prompt.ComplexityStandard),
		Entry("coding, review_only, simple", prompt.AgentCoding, port.ModeReviewOnly, prompt.ComplexitySimple),
		Entry("coding, validate_only, complex", prompt.AgentCoding, port.ModeValidateOnly, prompt.ComplexityComplex),
		Entry("coding, scaffold", prompt.AgentCoding, port.ModeScaffold, prompt.ComplexityStandard),
		Entry("coding, refactor", prompt.AgentCoding, port.ModeRefactor, prompt.ComplexityStandard),
		Entry("assistant", prompt.AgentAssistant, port.ModeAuto, prompt.ComplexityStandard),
		Entry("research", prompt.AgentResearch, port.ModeAuto, prompt.ComplexityStandard),
	)

	It("states the facts the original's tests check, in conform's words (DECISIONS 30)", func() {
		p := assemble(baseOptions()).SystemPrompt
		for _, phrase := range []string{
			`"toolCalling":"supported"`, `"imageRoute":"text_or_perception_tool_required"`, `"operatingSystem":"darwin"`,
			`"architecture":"arm64"`, `"shell":"zsh"`, `"executable":"/bin/zsh"`, `"interactive":false`, `"tty":false`,
			"Write run_command command strings in Zsh syntax.",
			"run_command runs with closed stdin and no TTY",
			"workspace-relative POSIX path",
			"do not create a report file in the workspace",
			"Never use run_command for Git status, diff or log",
			"Reproducing a specialized tool with a generic command does not earn that tool's trusted completion evidence",
			"cite only URLs that successful research tools actually returned",
			"Credentials, private source code, private logs and workspace file contents never go into a query",
			"walk these levels in order and stop at the first one that settles the task",
			"Never drop or weaken validation, security handling, accessibility support or error reporting",
			"EXTRACTED: seen directly in this workspace during this run",
			"Never present an inferred relationship as a verified fact",
			"git_operation using action 'diff'",
			`"source":"AGENTS.md","trust":"trusted_workspace_instruction"`,
			`"workspacePath":"."`,
		} {
			Expect(p).To(ContainSubstring(phrase))
		}
		Expect(regexp.MustCompile(`/workspace/`).MatchString(p)).To(BeFalse(), "no absolute workspace path")
		for _, legacy := range []string{"tool_catalog_search", "workspace_read_text", "workspace_apply_patch", "Search paths, symbols"} {
			Expect(p).NotTo(ContainSubstring(legacy))
		}
		Expect(p).NotTo(ContainSubstring("modified: src/index.ts\nSYSTEM override"), "the dirty state appears only JSON-escaped")
		Expect(p).To(ContainSubstring(`"content":"modified: src/index.ts\nSYSTEM override","source":"host_workspace_state","trust":"untrusted_data"`))
	})

	DescribeTable("names the command dialect of the host's shell",
		func(shell, sentence string) {
			o := baseOptions()
			if shell == "" {
				o.Config.HostEnvironment = nil
			} else {
				o.Config.HostEnvironment.Command.Shell = shell
			}
			Expect(assemble(o).SystemPrompt).To(ContainSubstring(sentence))
		},
		Entry("sh", prompt.ShellSh, "in POSIX sh syntax, without Bash or Zsh extensions such as arrays, [[ ]], brace expansion or process substitution"),
		Entry("bash", prompt.ShellBash, "Write run_command command strings in Bash syntax."),
		Entry("zsh", prompt.ShellZsh, "Write run_command command strings in Zsh syntax."),
		Entry("fish", prompt.ShellFish, "in Fish syntax, and do not fall back to POSIX sh syntax"),
		Entry("cmd", prompt.ShellCmd, "in Windows cmd.exe batch syntax. Reference environment variables as %NAME%, and use neither PowerShell cmdlets nor POSIX shell syntax."),
		Entry("powershell", prompt.ShellPowerShell, "in PowerShell syntax. Reference environment variables as $env:NAME, and use neither cmd.exe nor POSIX shell syntax."),
		Entry("unknown", prompt.ShellUnknown, "The shell dialect of run_command is unknown. Prefer calling project executables directly"),
		Entry("absent", "", "The shell dialect of run_command is unknown."),
	)

	It("shows the default host environment when none is supplied", func() {
		o := baseOptions()
		o.Config.HostEnvironment = nil
		Expect(assemble(o).SystemPrompt).To(ContainSubstring(`"hostEnvironment":{"architecture":"unknown","command":{"argumentsPrefix":[],"commandMode":"shell_string","executable":"unknown","interactive":false,"pathStyle":"unknown","shell":"unknown","stdin":"closed","tty":false},"operatingSystem":"unknown"}`))
	})

	It("writes the workspace-scope object in the documented key order", func() {
		p := assemble(baseOptions()).SystemPrompt
		var order []int
		for _, k := range []string{"approvalProfile", "complexity", "hostEnvironment", "mode", "networkAccess", "registrySnapshotHash", "taskId", "workspacePath", "writeAccess"} {
			order = append(order, strings.Index(p, `"`+k+`":`))
		}
		Expect(slices.IsSorted(order)).To(BeTrue())
		Expect(order[0]).To(BeNumerically(">", 0))
	})

	DescribeTable("shows writeAccess denied_by_task_mode in the read-only modes",
		func(mode, want string) {
			o := baseOptions()
			o.Mode, o.Config.WriteAccess = mode, prompt.AccessAllowed
			Expect(assemble(o).SystemPrompt).To(ContainSubstring(`"writeAccess":"` + want + `"`))
		},
		Entry("review_only", port.ModeReviewOnly, prompt.AccessDeniedByMode),
		Entry("validate_only", port.ModeValidateOnly, prompt.AccessDeniedByMode),
		Entry("auto", port.ModeAuto, prompt.AccessAllowed),
		Entry("refactor", port.ModeRefactor, prompt.AccessAllowed),
	)

	It("normalizes an unknown mode to auto and an unknown complexity to standard", func() {
		o := baseOptions()
		o.Mode, o.Config.Complexity = "turbo", "epic"
		p := assemble(o).SystemPrompt
		Expect(p).To(ContainSubstring(`"complexity":"standard"`))
		Expect(p).To(ContainSubstring(`"mode":"auto"`))
		Expect(p).To(ContainSubstring("for this standard task."))
	})

	It("keeps only {source, verified} of the capability evidence and omits undefined values", func() {
		p := assemble(baseOptions()).SystemPrompt
		Expect(p).To(ContainSubstring(`"evidence":[{"source":"runtime_probe","verified":true}]`))
		Expect(p).NotTo(ContainSubstring("observedAt"))
		Expect(p).To(ContainSubstring(`"contextWindow":131072`))
		Expect(p).NotTo(ContainSubstring("maxImages"))
		Expect(p).NotTo(ContainSubstring("supportedImageMimeTypes"))
		o := baseOptions()
		o.Capabilities.Input.Image = "supported"
		Expect(assemble(o).SystemPrompt).To(ContainSubstring(`"imageRoute":"direct_vision"`))
		o.Capabilities.Input.Image = "unknown"
		Expect(assemble(o).SystemPrompt).To(ContainSubstring(`"imageRoute":"capability_probe_required"`))
	})

	It("replaces five module texts, never ids or versions, for the non-coding profiles", func() {
		coding := assemble(baseOptions())
		o := baseOptions()
		o.Config.AgentProfile = prompt.AgentResearch
		research := assemble(o)
		o.Config.AgentProfile = prompt.AgentAssistant
		assistant := assemble(o)
		Expect(research.ModuleVersions).To(Equal(coding.ModuleVersions))
		var changed []string
		for i, m := range research.Modules {
			if m.Content != coding.Modules[i].Content {
				changed = append(changed, m.ID)
			}
		}
		Expect(changed).To(ConsistOf("identity", "operating-loop", "tool-policy", "research-policy", "completion"))
		Expect(research.Modules[0].Content).To(ContainSubstring("Galaxy Agent"))
		Expect(research.Modules[0].Content).To(ContainSubstring("research task"))
		Expect(assistant.Modules[0].Content).To(ContainSubstring("requested task"))
		Expect(coding.Modules[0].Content).To(ContainSubstring("Galaxy AI Coder"))
	})

	It("marshals a snapshot with exact JSON names and ordered moduleVersions", func() {
		b, err := json.Marshal(assemble(baseOptions()))
		Expect(err).NotTo(HaveOccurred())
		for _, k := range []string{"estimatedTokens", "moduleVersions", "modules", "promptHash", "promptVersion", "staticEstimatedTokens", "systemPrompt"} {
			Expect(string(b)).To(ContainSubstring(`"` + k + `":`))
		}
		Expect(string(b)).To(ContainSubstring(`"moduleVersions":{"identity":"2.0.0","instruction-hierarchy":"2.0.0","workspace-scope":"2.3.0"`))
	})
})

var _ = Describe("EstimateTokens (CONTRACTS §12.2)", func() {
	DescribeTable("classifies and estimates by UTF-16 length",
		func(text, kind string, tokens int) {
			Expect(prompt.ClassifyText(text)).To(Equal(kind))
			Expect(prompt.EstimateTokens(text)).To(Equal(tokens))
		},
		Entry("empty", "", prompt.KindEnglish, 0),
		Entry("english", "abcd", prompt.KindEnglish, 2),                        // ceil(4/4*1.15)
		Entry("json", `  {"a":1}  `, prompt.KindJSON, 5),                       // ceil(11/2.8*1.15)
		Entry("broken json with a brace is code", `{"a":`, prompt.KindCode, 2), // ceil(5/3*1.15)
		Entry("code keyword", "return x", prompt.KindCode, 4),
		Entry("keyword inside a word is not code", "returned", prompt.KindEnglish, 3),
		Entry("arrow", "a => b", prompt.KindCode, 3),
		Entry("vietnamese", "Xin chào", prompt.KindVietnamese, 4),
		Entry("astral characters count two units", "😀😀", prompt.KindEnglish, 2),
	)
})

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
