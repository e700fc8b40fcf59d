// Command conform certifies hosts of the AI Coder runtime against the
// host-conformance matrix.
//
// Run `conform help` for the commands, and `conform help COMMAND` for one.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/internal/redact"
	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix"
	_ "github.com/galaxy-stack/conform/matrix/items" // registers the matrix items
)

func main() {
	builtin.MaybeServe()
	setup()
	os.Exit(main1(os.Args[1:], os.Stdout, os.Stderr))
}

// setup prepares the conform process for supervising hosts; the tests'
// conform command calls it too, so that scripts run conform as users do.
func setup() {
	// Descendants a host leaves behind are re-parented to conform, so that
	// they can be found and killed when its session ends.
	if err := hostproc.Supervise(); err != nil {
		fmt.Fprintln(os.Stderr, "conform: warning: cannot supervise host descendants:", err)
	}
}

// errFailed means the command ran and found a failure; it maps to exit 1.
var errFailed = errors.New("failed")

// usageError is an invocation mistake; it maps to exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// main1 runs one command and maps its error to an exit status, the one
// rule of every command: 0 success (help asked for included); 1 something
// failed; 2 the invocation itself is wrong (a usage error, among them every
// flag the command table's parser refuses, or an invocation error of the
// matrix); 130 or 143 a SIGINT or SIGTERM stopped it. `conform host
// serve`, which builtin.MaybeServe takes before main1 runs, exits by the
// same rule in builtin.ServeMain.
func main1(args []string, stdout, stderr io.Writer) int {
	// Every line conform prints goes through the one redactor.
	stdout, stderr = redact.Writer(stdout), redact.Writer(stderr)
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		// The spelling most tools accept for `conform version`.
		args = append([]string{"version"}, args[1:]...)
	}
	err := dispatch(args, stdout, stderr)
	var ue *usageError
	var ie *matrix.InvocationError
	var stopped *interruptedError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errFailed):
		return 1
	case errors.As(err, &ue):
		printError(stderr, err)
		return 2
	case errors.As(err, &ie):
		// It names its fixture itself; what wraps it adds nothing.
		printError(stderr, ie)
		return 2
	case errors.As(err, &stopped):
		printError(stderr, err)
		return stopped.exitStatus()
	}
	printError(stderr, err)
	return 1
}

// printError prints the error a command ended with. An error may quote a
// fixture, a host or a document: its terminal controls are escaped.
func printError(stderr io.Writer, err error) {
	fmt.Fprintln(stderr, "conform:", termsafe.String(err.Error()))
}
