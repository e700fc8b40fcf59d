package prompt

// A Configuration is the host's structured prompt configuration, the run
// request's "prompt" object (CONTRACTS §9.1, AiCoderPromptConfiguration).
// It holds facts and policy choices only, never prompt text, a prompt
// version or a prompt hash. The four access and profile fields are
// required; a nil pointer or slice is an absent optional field.
type Configuration struct {
	AgentProfile                 string               `json:"agentProfile,omitempty"`
	ApprovalProfile              string               `json:"approvalProfile"`
	Complexity                   string               `json:"complexity"`
	DirtyStateSummary            *string              `json:"dirtyStateSummary,omitempty"`
	HostEnvironment              *HostEnvironment     `json:"hostEnvironment,omitempty"`
	NetworkAccess                string               `json:"networkAccess"`
	TrustedWorkspaceInstructions []TrustedInstruction `json:"trustedWorkspaceInstructions,omitempty"`
	WriteAccess                  string               `json:"writeAccess"`
}

// A HostEnvironment describes the host machine and its command interpreter
// (CONTRACTS §9.2, AiCoderHostEnvironment): exactly these three fields.
type HostEnvironment struct {
	Architecture    string             `json:"architecture"`
	Command         CommandEnvironment `json:"command"`
	OperatingSystem string             `json:"operatingSystem"`
}

// A CommandEnvironment is the exact non-interactive interpreter contract
// run_command uses (CONTRACTS §9.2, AiCoderCommandExecutionEnvironment):
// exactly these eight fields. CommandMode is always "shell_string", Stdin
// "closed", and Interactive and TTY false.
type CommandEnvironment struct {
	ArgumentsPrefix []string `json:"argumentsPrefix"`
	CommandMode     string   `json:"commandMode"`
	Executable      string   `json:"executable"`
	Interactive     bool     `json:"interactive"`
	PathStyle       string   `json:"pathStyle"`
	Shell           string   `json:"shell"`
	Stdin           string   `json:"stdin"`
	TTY             bool     `json:"tty"`
}

// Argv returns the interpreter argv for command: the executable, the
// arguments prefix, then command as one argument.
func (c CommandEnvironment) Argv(command string) []string {
	argv := make([]string, 0, len(c.ArgumentsPrefix)+2)
	argv = append(argv, c.Executable)
	argv = append(argv, c.ArgumentsPrefix...)
	return append(argv, command)
}

// A TrustedInstruction is one workspace instruction the host validated and
// promoted, with its provenance (CONTRACTS §9.1): Source names where it
// came from (for example "AGENTS.md") and ContentHash, when set, the hash
// the host verified. Repository content never becomes trusted because of
// its file name; only these records carry workspace-instruction authority.
type TrustedInstruction struct {
	Content     string `json:"content"`
	ContentHash string `json:"contentHash,omitempty"`
	Source      string `json:"source"`
}

// DefaultHostEnvironment returns the environment the prompt shows when the
// host supplies none (CONTRACTS §9.5): every fact "unknown", an empty
// argument prefix, and the fixed non-interactive values.
func DefaultHostEnvironment() HostEnvironment {
	return HostEnvironment{
		Architecture: "unknown",
		Command: CommandEnvironment{
			ArgumentsPrefix: []string{}, CommandMode: CommandModeShellString, Executable: "unknown",
			PathStyle: PathUnknown, Shell: ShellUnknown, Stdin: StdinClosed,
		},
		OperatingSystem: OSUnknown,
	}
}

// Clone returns a deep copy of c.
func (c Configuration) Clone() Configuration {
	out := c
	if c.DirtyStateSummary != nil {
		s := *c.DirtyStateSummary
		out.DirtyStateSummary = &s
	}
	if c.HostEnvironment != nil {
		h := c.HostEnvironment.Clone()
		out.HostEnvironment = &h
	}
	if c.TrustedWorkspaceInstructions != nil {
		out.TrustedWorkspaceInstructions = append([]TrustedInstruction{}, c.TrustedWorkspaceInstructions...)
	}
	return out
}

// Clone returns a deep copy of h.
func (h HostEnvironment) Clone() HostEnvironment {
	out := h
	if h.Command.ArgumentsPrefix != nil {
		out.Command.ArgumentsPrefix = append([]string{}, h.Command.ArgumentsPrefix...)
	}
	return out
}

// Profile returns the agent profile, "coding" when none is set.
func (c Configuration) Profile() string {
	if c.AgentProfile == "" {
		return AgentCoding
	}
	return c.AgentProfile
}
