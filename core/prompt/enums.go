package prompt

import "github.com/galaxy-stack/conform/core/port"

// Prompt version and budget (CONTRACTS §9.4). The module texts are
// conform's own words under conform's own version (DECISIONS 30); the
// original's version was "ai-coder-single/2.8.0".
const (
	// Version is the promptVersion of every snapshot this package assembles.
	Version = "conform-single/1.0.0"
	// StaticTokenBudget bounds the estimated tokens of all static modules
	// together; assembly fails beyond it.
	StaticTokenBudget = 8000
)

// Approval profiles (CONTRACTS §9.1, §10.1).
const (
	ApprovalStrict           = "strict"
	ApprovalBalanced         = "balanced"
	ApprovalTrustedWorkspace = "trusted-workspace"
)

// Task complexities (CONTRACTS §9.1).
const (
	ComplexitySimple   = "simple"
	ComplexityStandard = "standard"
	ComplexityComplex  = "complex"
)

// Network and write access declarations (CONTRACTS §9.1). AccessDeniedByMode
// is what the prompt shows for writeAccess in review_only and validate_only.
const (
	AccessAllowed      = "allowed"
	AccessDenied       = "denied"
	AccessPolicyGated  = "policy_gated"
	AccessDeniedByMode = "denied_by_task_mode"
)

// Agent profiles (CONTRACTS §9.1); the default is AgentCoding.
const (
	AgentCoding    = "coding"
	AgentAssistant = "assistant"
	AgentResearch  = "research"
)

// Host operating systems (CONTRACTS §9.2).
const (
	OSDarwin  = "darwin"
	OSLinux   = "linux"
	OSWin32   = "win32"
	OSUnknown = "unknown"
)

// Command shells (CONTRACTS §9.2).
const (
	ShellBash       = "bash"
	ShellCmd        = "cmd"
	ShellFish       = "fish"
	ShellPowerShell = "powershell"
	ShellSh         = "sh"
	ShellUnknown    = "unknown"
	ShellZsh        = "zsh"
)

// Command path styles (CONTRACTS §9.2).
const (
	PathPosix   = "posix"
	PathWindows = "windows"
	PathUnknown = "unknown"
)

// Fixed values of a command environment (CONTRACTS §9.2).
const (
	CommandModeShellString = "shell_string"
	StdinClosed            = "closed"
)

// Token profiles (RUNTIME §4.1); the default is TokenBalanced.
const (
	TokenBalanced     = "balanced"
	TokenConservative = "conservative"
	TokenExtended     = "extended"
)

// Attachment retentions (RUNTIME §4.3 item 20).
const (
	RetentionDefault   = "default"
	RetentionDurable   = "durable"
	RetentionTemporary = "temporary"
)

// Trust labels that appear in requests and prompt data (CONTRACTS §9.5,
// §9.7).
const (
	TrustUntrustedData     = "untrusted_data"
	TrustWorkspaceInstr    = "trusted_workspace_instruction"
	CheckpointTrustedHost  = "trusted_host"
	legacyAttachmentSource = "legacy_attachment_context"
)

var (
	approvalProfiles = []string{ApprovalStrict, ApprovalBalanced, ApprovalTrustedWorkspace}
	complexities     = []string{ComplexitySimple, ComplexityStandard, ComplexityComplex}
	accessValues     = []string{AccessAllowed, AccessDenied, AccessPolicyGated}
	agentProfiles    = []string{AgentCoding, AgentAssistant, AgentResearch}
	modes            = []string{port.ModeAuto, port.ModeRefactor, port.ModeReviewOnly, port.ModeScaffold, port.ModeValidateOnly}
	operatingSystems = []string{OSDarwin, OSLinux, OSWin32, OSUnknown}
	shells           = []string{ShellBash, ShellCmd, ShellFish, ShellPowerShell, ShellSh, ShellUnknown, ShellZsh}
	pathStyles       = []string{PathPosix, PathWindows, PathUnknown}
	tokenProfiles    = []string{TokenBalanced, TokenConservative, TokenExtended}
	retentions       = []string{RetentionDefault, RetentionDurable, RetentionTemporary}
)
