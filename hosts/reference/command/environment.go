package command

import (
	"runtime"
	"strings"

	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// The host environment a host publishes to the core as
// prompt.hostEnvironment (CONTRACTS §9.2, LAB_AND_HOSTS §12) is
// [prompt.HostEnvironment]: the [Runner] spawns every command from the same
// value it publishes, the interpreter's Executable, then its
// ArgumentsPrefix, then the command string ([prompt.CommandEnvironment.Argv]).
//
// Names are the original runtime's (Node's): operatingSystem is "darwin",
// "linux" or "win32" and architecture is e.g. "x64" or "arm64", never the
// GOOS/GOARCH spelling, so two hosts on one machine publish equal values.

// DetectEnvironment returns the host environment of the running process's
// platform; see [EnvironmentFor].
func DetectEnvironment() (prompt.HostEnvironment, error) {
	return EnvironmentFor(runtime.GOOS, runtime.GOARCH)
}

// EnvironmentFor returns the host environment for a Go platform (LAB_AND_HOSTS
// §12): /bin/sh -c (shell "sh", POSIX paths) on darwin and linux, cmd.exe
// /d /s /v:off /c (shell "cmd", Windows paths) on windows. Any other
// platform fails with UNAVAILABLE "run_command is not supported on platform
// '<p>'.", p being the Node platform name.
func EnvironmentFor(goos, goarch string) (prompt.HostEnvironment, error) {
	platform := NodePlatform(goos)
	env := prompt.HostEnvironment{
		Architecture:    NodeArchitecture(goarch),
		OperatingSystem: platform,
	}
	switch platform {
	case "darwin", "linux":
		env.Command = prompt.CommandEnvironment{
			ArgumentsPrefix: []string{"-c"},
			Executable:      "/bin/sh",
			PathStyle:       "posix",
			Shell:           "sh",
		}
	case "win32":
		env.Command = prompt.CommandEnvironment{
			ArgumentsPrefix: []string{"/d", "/s", "/v:off", "/c"},
			Executable:      "cmd.exe",
			PathStyle:       "windows",
			Shell:           "cmd",
		}
	default:
		return prompt.HostEnvironment{}, fail(hosterr.Unavailable, "run_command is not supported on platform '%s'.", platform)
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
