package command

import (
	"runtime"
	"slices"
	"strings"
)

// An Environment is the immutable host environment a host publishes to the
// core as prompt.hostEnvironment (CONTRACTS §9.2, LAB_AND_HOSTS §12). The
// [Runner] spawns every command from the same value it publishes: the
// interpreter's Executable, then its ArgumentsPrefix, then the command
// string.
//
// Names are the original runtime's (Node's): operatingSystem is "darwin",
// "linux" or "win32" and architecture is e.g. "x64" or "arm64", never the
// GOOS/GOARCH spelling, so two hosts on one machine publish equal values.
type Environment struct {
	Architecture    string      `json:"architecture"`
	Command         Interpreter `json:"command"`
	OperatingSystem string      `json:"operatingSystem"`
}

// An Interpreter is the command sub-object of the host environment
// (CONTRACTS §9.2 hostEnvironment.command): the one real interpreter that
// runs every command string, and how it is run. Field order is the sorted
// key order the prompt uses (DECISIONS 31).
type Interpreter struct {
	ArgumentsPrefix []string `json:"argumentsPrefix"`
	CommandMode     string   `json:"commandMode"`
	Executable      string   `json:"executable"`
	Interactive     bool     `json:"interactive"`
	PathStyle       string   `json:"pathStyle"`
	Shell           string   `json:"shell"`
	Stdin           string   `json:"stdin"`
	TTY             bool     `json:"tty"`
}

// Clone returns a deep copy of e, so a caller can never change the value a
// [Runner] spawns from.
func (e Environment) Clone() Environment {
	e.Command.ArgumentsPrefix = slices.Clone(e.Command.ArgumentsPrefix)
	return e
}

// Argv returns the interpreter argv for command: the executable, the
// arguments prefix, then command as one argument.
func (i Interpreter) Argv(command string) []string {
	argv := make([]string, 0, len(i.ArgumentsPrefix)+2)
	argv = append(argv, i.Executable)
	argv = append(argv, i.ArgumentsPrefix...)
	return append(argv, command)
}

// DetectEnvironment returns the Environment of the running process's
// platform; see [EnvironmentFor].
func DetectEnvironment() (Environment, error) {
	return EnvironmentFor(runtime.GOOS, runtime.GOARCH)
}

// EnvironmentFor returns the Environment for a Go platform (LAB_AND_HOSTS
// §12): /bin/sh -c (shell "sh", POSIX paths) on darwin and linux, cmd.exe
// /d /s /v:off /c (shell "cmd", Windows paths) on windows. Any other
// platform fails with UNAVAILABLE "run_command is not supported on platform
// '<p>'.", p being the Node platform name.
func EnvironmentFor(goos, goarch string) (Environment, error) {
	platform := NodePlatform(goos)
	env := Environment{
		Architecture:    NodeArchitecture(goarch),
		OperatingSystem: platform,
	}
	switch platform {
	case "darwin", "linux":
		env.Command = Interpreter{
			ArgumentsPrefix: []string{"-c"},
			Executable:      "/bin/sh",
			PathStyle:       "posix",
			Shell:           "sh",
		}
	case "win32":
		env.Command = Interpreter{
			ArgumentsPrefix: []string{"/d", "/s", "/v:off", "/c"},
			Executable:      "cmd.exe",
			PathStyle:       "windows",
			Shell:           "cmd",
		}
	default:
		return Environment{}, fail(Unavailable, "run_command is not supported on platform '%s'.", platform)
	}
	env.Command.CommandMode = "shell_string"
	env.Command.Stdin = "closed"
	return env, nil
}

// NodePlatform returns Node's process.platform name for a GOOS value
// ("windows" is "win32", "solaris" and "illumos" are "sunos"); other names
// are returned unchanged.
func NodePlatform(goos string) string {
	switch goos {
	case "windows":
		return "win32"
	case "solaris", "illumos":
		return "sunos"
	}
	return goos
}

// NodeArchitecture returns Node's process.arch name for a GOARCH value
// ("amd64" is "x64", "386" is "ia32"); other names are returned trimmed and
// unchanged, and an empty name is "unknown".
func NodeArchitecture(goarch string) string {
	switch goarch = strings.TrimSpace(goarch); goarch {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	case "mipsle":
		return "mipsel"
	case "ppc64le":
		return "ppc64"
	case "":
		return "unknown"
	}
	return goarch
}
