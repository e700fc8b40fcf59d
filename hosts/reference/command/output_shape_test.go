package command_test

import (
	"bytes"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

var _ = Describe("run_command output (LAB §20.3)", func() {
	encode := func(v any) string {
		var buf bytes.Buffer
		Expect(jsonEncode(&buf, v)).To(Succeed())
		return strings.TrimSpace(buf.String())
	}

	It("keeps the original key order and maps a signal exit to -1", func() {
		res := command.Result{Command: "sleep 9", Status: command.StatusTimedOut, Stdout: "a", StderrTruncated: true}
		Expect(encode(res.ToolOutput("."))).To(Equal(
			`{"command":"sleep 9","cwd":".","exitCode":-1,"stdout":"a","stderr":"","timedOut":true,"cancelled":false,"truncated":true}`))
		Expect(res.Summary()).To(Equal("Command timed_out with exit code null."))
	})

	It("reports a canceled run and appends derived mutations last", func() {
		code := 2
		out := command.Result{Command: "x", Status: command.StatusCanceled, ExitCode: &code}.ToolOutput("src")
		out.DerivedMutations = &command.DerivedMutations{Count: 1, Paths: []string{"node_modules/x"}}
		Expect(encode(out)).To(Equal(
			`{"command":"x","cwd":"src","exitCode":2,"stdout":"","stderr":"","timedOut":false,"cancelled":true,"truncated":false,"derivedMutations":{"count":1,"paths":["node_modules/x"],"truncated":false}}`))
	})

	It("shapes a port failure after a mutation", func() {
		out := command.FailureOutput("make", ".", &hosterr.Error{Code: hosterr.DeadlineExceeded, Message: "The run deadline elapsed."})
		Expect(encode(out)).To(Equal(
			`{"command":"make","cwd":".","exitCode":-1,"stdout":"","stderr":"DEADLINE_EXCEEDED: The run deadline elapsed.","timedOut":true,"cancelled":false,"truncated":false}`))
	})
})
