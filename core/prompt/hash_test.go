package prompt_test

import (
	"errors"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

var hashPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

func hashOf(o prompt.Options) string { return assemble(o).PromptHash }

var _ = Describe("Prompt hash (CONTRACTS §9.6, DECISIONS 32; S000 item 16)", func() {
	It("is SHA-256 over the canonical {moduleVersions, promptVersion, systemPrompt}", func() {
		s := assemble(baseOptions())
		Expect(s.PromptHash).To(MatchRegexp(hashPattern.String()))
		want, err := canon.Hash(map[string]any{"moduleVersions": s.ModuleVersions, "promptVersion": prompt.Version, "systemPrompt": s.SystemPrompt})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.PromptHash).To(Equal(want))
		Expect(hashOf(baseOptions())).To(Equal(s.PromptHash), "deterministic")
	})

	It("covers every hashed input: text, each module version and the prompt version", func() {
		s := assemble(baseOptions())
		base := prompt.PromptHash(s.ModuleVersions, s.PromptVersion, s.SystemPrompt)
		Expect(prompt.PromptHash(s.ModuleVersions, s.PromptVersion, s.SystemPrompt+" ")).NotTo(Equal(base))
		Expect(prompt.PromptHash(s.ModuleVersions, "conform-single/1.0.1", s.SystemPrompt)).NotTo(Equal(base))
		bumped := append(canon.Object{}, s.ModuleVersions...)
		bumped[5] = canon.Member{Key: bumped[5].Key, Value: "2.0.1"}
		Expect(prompt.PromptHash(bumped, s.PromptVersion, s.SystemPrompt)).NotTo(Equal(base))
	})

	It("changes when a lazy tool is activated, and not with the activation order", func() {
		r := fullRegistry(port.ModeAuto)
		o := baseOptions()
		o.RegistrySnapshotHash = r.ActiveHash()
		before := hashOf(o)
		Expect(r.Activate("command.session")).To(BeTrue())
		Expect(r.Activate("research.search")).To(BeTrue())
		o.RegistrySnapshotHash = r.ActiveHash()
		after := hashOf(o)
		Expect(after).NotTo(Equal(before))

		other := fullRegistry(port.ModeAuto)
		Expect(other.Activate("research.search")).To(BeTrue())
		Expect(other.Activate("command.session")).To(BeTrue())
		o.RegistrySnapshotHash = other.ActiveHash()
		Expect(hashOf(o)).To(Equal(after))
	})

	DescribeTable("changes with every policy and fact the prompt states",
		func(change func(*prompt.Options)) {
			o := baseOptions()
			change(&o)
			Expect(hashOf(o)).NotTo(Equal(hashOf(baseOptions())))
		},
		Entry("approval profile strict", func(o *prompt.Options) { o.Config.ApprovalProfile = prompt.ApprovalStrict }),
		Entry("approval profile trusted-workspace", func(o *prompt.Options) { o.Config.ApprovalProfile = prompt.ApprovalTrustedWorkspace }),
		Entry("network access denied", func(o *prompt.Options) { o.Config.NetworkAccess = prompt.AccessDenied }),
		Entry("network access allowed", func(o *prompt.Options) { o.Config.NetworkAccess = prompt.AccessAllowed }),
		Entry("write access denied", func(o *prompt.Options) { o.Config.WriteAccess = prompt.AccessDenied }),
		Entry("write access allowed", func(o *prompt.Options) { o.Config.WriteAccess = prompt.AccessAllowed }),
		Entry("mode review_only", func(o *prompt.Options) { o.Mode = port.ModeReviewOnly }),
		Entry("mode validate_only", func(o *prompt.Options) { o.Mode = port.ModeValidateOnly }),
		Entry("mode scaffold", func(o *prompt.Options) { o.Mode = port.ModeScaffold }),
		Entry("mode refactor", func(o *prompt.Options) { o.Mode = port.ModeRefactor }),
		Entry("complexity simple", func(o *prompt.Options) { o.Config.Complexity = prompt.ComplexitySimple }),
		Entry("complexity complex", func(o *prompt.Options) { o.Config.Complexity = prompt.ComplexityComplex }),
		Entry("shell", func(o *prompt.Options) { o.Config.HostEnvironment.Command.Shell = prompt.ShellBash }),
		Entry("executable", func(o *prompt.Options) { o.Config.HostEnvironment.Command.Executable = "/usr/bin/zsh" }),
		Entry("operating system", func(o *prompt.Options) { o.Config.HostEnvironment.OperatingSystem = prompt.OSLinux }),
		Entry("no host environment", func(o *prompt.Options) { o.Config.HostEnvironment = nil }),
		Entry("trusted instruction added", func(o *prompt.Options) {
			o.Config.TrustedWorkspaceInstructions = append(o.Config.TrustedWorkspaceInstructions, prompt.TrustedInstruction{Content: "x", Source: "y"})
		}),
		Entry("trusted instruction provenance", func(o *prompt.Options) { o.Config.TrustedWorkspaceInstructions[0].ContentHash = "sha256:01" }),
		Entry("dirty state", func(o *prompt.Options) { o.Config.DirtyStateSummary = nil }),
		Entry("agent profile", func(o *prompt.Options) { o.Config.AgentProfile = prompt.AgentAssistant }),
		Entry("task id", func(o *prompt.Options) { o.TaskID = "task-2" }),
		Entry("workspace path", func(o *prompt.Options) { o.WorkspacePath = nil }),
		Entry("registry hash", func(o *prompt.Options) { o.RegistrySnapshotHash = "sha256:" + repeat("b", 64) }),
		Entry("a semantic capability", func(o *prompt.Options) { o.Capabilities.ToolCalling = "unknown" }),
		Entry("capability evidence verification", func(o *prompt.Options) { o.Capabilities.Evidence[0].Verified = false }),
		Entry("model", func(o *prompt.Options) { o.Capabilities.Identity.Model = "other-model" }),
	)

	DescribeTable("does not change with differences the prompt does not state",
		func(change func(*prompt.Options)) {
			o := baseOptions()
			change(&o)
			Expect(hashOf(o)).To(Equal(hashOf(baseOptions())))
		},
		Entry("a new probe timestamp", func(o *prompt.Options) { o.Capabilities.Evidence[0].ObservedAt = "2027-01-01T00:00:00.000Z" }),
		Entry("the model endpoint", func(o *prompt.Options) { o.Capabilities.Identity.BaseURL = "https://elsewhere.invalid" }),
		Entry("an equal copy of the host environment", func(o *prompt.Options) {
			h := o.Config.HostEnvironment.Clone()
			o.Config.HostEnvironment = &h
		}),
	)

	It("does not change with writeAccess where the mode denies writes anyway", func() {
		a, b := baseOptions(), baseOptions()
		a.Mode, b.Mode = port.ModeReviewOnly, port.ModeReviewOnly
		a.Config.WriteAccess, b.Config.WriteAccess = prompt.AccessAllowed, prompt.AccessDenied
		Expect(hashOf(a)).To(Equal(hashOf(b)))
	})

	It("does not depend on the key order of the request JSON (DECISIONS 31)", func() {
		ordered := `{"goal":"g","taskId":"t","workspaceRoot":"/w","prompt":{"approvalProfile":"balanced","complexity":"standard","networkAccess":"denied","writeAccess":"allowed","hostEnvironment":{"architecture":"x64","command":{"argumentsPrefix":["-c"],"commandMode":"shell_string","executable":"/bin/sh","interactive":false,"pathStyle":"posix","shell":"sh","stdin":"closed","tty":false},"operatingSystem":"linux"}}}`
		shuffled := `{"prompt":{"hostEnvironment":{"operatingSystem":"linux","command":{"tty":false,"stdin":"closed","shell":"sh","pathStyle":"posix","interactive":false,"executable":"/bin/sh","commandMode":"shell_string","argumentsPrefix":["-c"]},"architecture":"x64"},"writeAccess":"allowed","networkAccess":"denied","complexity":"standard","approvalProfile":"balanced"},"workspaceRoot":"/w","taskId":"t","goal":"g"}`
		var hashes []string
		for _, text := range []string{ordered, shuffled} {
			r, err := prompt.ParseRequest([]byte(text), "run-1")
			Expect(err).NotTo(HaveOccurred())
			o := baseOptions()
			o.Config, o.Mode, o.TaskID = r.Prompt, r.ModeOrDefault(), r.TaskID
			hashes = append(hashes, hashOf(o))
		}
		Expect(hashes[0]).To(Equal(hashes[1]))
	})
})

var _ = Describe("CheckCommandEnvironment (RUNTIME §10.3 step 7; S000 Commands)", func() {
	const msg = "An active command.run tool requires a concrete hostEnvironment.command interpreter and shell dialect."
	active := map[string]string{"run_command": "command.run", "read_file": "workspace.read"}

	mismatch := func(err error) {
		var e *prompt.Error
		ExpectWithOffset(1, errors.As(err, &e)).To(BeTrue(), "want a *prompt.Error, got %v", err)
		ExpectWithOffset(1, e.Code).To(Equal(prompt.CodeCapabilityMismatch))
		ExpectWithOffset(1, e.Message).To(Equal(msg))
		ExpectWithOffset(1, err.Error()).To(Equal("CAPABILITY_MISMATCH: " + msg))
	}

	It("refuses an absent host environment while command.run is active", func() {
		mismatch(prompt.CheckCommandEnvironment(prompt.Configuration{}, active))
	})

	DescribeTable("refuses each unknown or empty interpreter fact",
		func(change func(*prompt.HostEnvironment)) {
			h := zshHost()
			change(h)
			mismatch(prompt.CheckCommandEnvironment(prompt.Configuration{HostEnvironment: h}, active))
		},
		Entry("operatingSystem unknown", func(h *prompt.HostEnvironment) { h.OperatingSystem = prompt.OSUnknown }),
		Entry("executable unknown", func(h *prompt.HostEnvironment) { h.Command.Executable = "unknown" }),
		Entry("empty argumentsPrefix", func(h *prompt.HostEnvironment) { h.Command.ArgumentsPrefix = []string{} }),
		Entry("pathStyle unknown", func(h *prompt.HostEnvironment) { h.Command.PathStyle = prompt.PathUnknown }),
		Entry("shell unknown", func(h *prompt.HostEnvironment) { h.Command.Shell = prompt.ShellUnknown }),
	)

	It("accepts a concrete interpreter, and an unknown architecture", func() {
		h := zshHost()
		Expect(prompt.CheckCommandEnvironment(prompt.Configuration{HostEnvironment: h}, active)).To(Succeed())
		h.Architecture = "unknown"
		Expect(prompt.CheckCommandEnvironment(prompt.Configuration{HostEnvironment: h}, active)).To(Succeed())
	})

	It("applies only when command.run is in the active tool set", func() {
		auto := fullRegistry(port.ModeAuto)
		mismatch(prompt.CheckCommandEnvironment(prompt.Configuration{}, auto.CanonicalToolIDs()))
		review := fullRegistry(port.ModeReviewOnly)
		Expect(prompt.CheckCommandEnvironment(prompt.Configuration{}, review.CanonicalToolIDs())).To(Succeed())
		Expect(prompt.CheckCommandEnvironment(prompt.Configuration{}, nil)).To(Succeed())
	})
})
