package command

import (
	"fmt"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// A ToolOutput is the model-visible output of the run_command tool
// (command.run; LAB_AND_HOSTS §20.3, CONTRACTS §6.3 tool 5). Field order is
// the original's and matters: the core's output limiter keeps a head and a
// tail, and "truncated" must survive as one of the last keys.
type ToolOutput struct {
	Command          string            `json:"command"`
	Cwd              string            `json:"cwd"`
	ExitCode         int               `json:"exitCode"`
	Stdout           string            `json:"stdout"`
	Stderr           string            `json:"stderr"`
	TimedOut         bool              `json:"timedOut"`
	Cancelled        bool              `json:"cancelled"`
	Truncated        bool              `json:"truncated"`
	DerivedMutations *DerivedMutations `json:"derivedMutations,omitempty"`
}

// DerivedMutations reports changed paths in generated state
// (CONTRACTS §6.1 DERIVED_MUTATION_OBSERVATION): the count, the first 32
// paths and whether more were left out.
type DerivedMutations struct {
	Count     int      `json:"count"`
	Paths     []string `json:"paths"`
	Truncated bool     `json:"truncated"`
}

// ToolOutput shapes r for the model; cwd is the tool argument as given
// ("." by default). A null exit code becomes -1 and truncated is true when
// either stream was truncated.
func (r Result) ToolOutput(cwd string) ToolOutput {
	code := -1
	if r.ExitCode != nil {
		code = *r.ExitCode
	}
	return ToolOutput{
		Command:   r.Command,
		Cwd:       cwd,
		ExitCode:  code,
		Stdout:    r.Stdout,
		Stderr:    r.Stderr,
		TimedOut:  r.Status == StatusTimedOut,
		Cancelled: r.Status == StatusCanceled,
		Truncated: r.StdoutTruncated || r.StderrTruncated,
	}
}

// Summary is the tool summary of a command that ran: "Command <status>
// with exit code <code>." with "null" for a signal exit.
func (r Result) Summary() string {
	code := "null"
	if r.ExitCode != nil {
		code = fmt.Sprint(*r.ExitCode)
	}
	return fmt.Sprintf("Command %s with exit code %s.", r.Status, code)
}

// FailureOutput is the success-shaped output the executor returns when the
// port failed but the workspace changed anyway (LAB_AND_HOSTS §20.3): exit
// code -1, no stdout, "<code>: <message>" as stderr. When nothing changed
// the executor returns the port error as a typed tool error instead.
func FailureOutput(command, cwd string, err *hosterr.Error) ToolOutput {
	return ToolOutput{
		Command:   command,
		Cwd:       cwd,
		ExitCode:  -1,
		Stderr:    fmt.Sprintf("%s: %s", err.Code, err.Message),
		TimedOut:  err.Code == hosterr.DeadlineExceeded,
		Cancelled: err.Code == hosterr.Canceled,
	}
}
