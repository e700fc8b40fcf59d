package prompt

// CommandRunID is the canonical ID of the tool whose presence requires a
// concrete command environment.
const CommandRunID = "command.run"

// CheckCommandEnvironment applies the prompt-snapshot precondition of
// RUNTIME §10.3 step 7 (CONTRACTS §9.2; S000 "Commands"): when the active
// tool set routes any model name to command.run (canonicalToolIDs maps
// model-facing names to canonical IDs), the configuration must carry a
// hostEnvironment whose operatingSystem, command.executable,
// command.pathStyle and command.shell are not "unknown" and whose
// command.argumentsPrefix is not empty. Otherwise it returns an *[Error]
// with code CAPABILITY_MISMATCH. The run controller calls it before every
// prompt assembly, including the reassembly after a lazy activation.
func CheckCommandEnvironment(cfg Configuration, canonicalToolIDs map[string]string) error {
	active := false
	for _, id := range canonicalToolIDs {
		active = active || id == CommandRunID
	}
	if !active {
		return nil
	}
	h := cfg.HostEnvironment
	if h == nil || h.OperatingSystem == OSUnknown || h.Command.Executable == "unknown" ||
		len(h.Command.ArgumentsPrefix) == 0 || h.Command.PathStyle == PathUnknown || h.Command.Shell == ShellUnknown {
		return &Error{Code: CodeCapabilityMismatch,
			Message: "An active command.run tool requires a concrete hostEnvironment.command interpreter and shell dialect."}
	}
	return nil
}
