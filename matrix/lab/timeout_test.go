package lab_test

import (
	"context"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/matrix/lab"
)

// hangingHostArg makes the test binary serve the reference host with
// tool/execute never answering, cancelled or not, until shutdown or the end
// of its input: a wedged host that still lets itself be shut down.
const hangingHostArg = "lab-hanging-host"

var _ = Describe("the fixture bound", func() {
	It("fails a fixture whose host hangs with a failure naming the bound", func() {
		exe, err := os.Executable()
		Expect(err).NotTo(HaveOccurred())
		p := filepath.Join(GinkgoT().TempDir(), "hang.json")
		Expect(os.WriteFile(p, []byte(`{
  "schemaVersion": 2, "name": "hang", "task": "List the workspace.",
  "rounds": [
    { "toolCalls": [{ "toolCallId": "l", "toolName": "list_files", "arguments": { "path": "." } }], "finishReason": "tool_calls" },
    { "content": "done", "finishReason": "stop" }
  ]
}`), 0o644)).To(Succeed())
		start := time.Now()
		rep, err := lab.Run(context.Background(), loadOne(p),
			lab.Options{Argv: []string{exe, hangingHostArg}, ForbidContainment: true, Timeout: time.Second}, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Passed).To(BeFalse())
		Expect(failuresOf(rep)).To(ConsistOf(ContainSubstring("fixture timed out after 1s (the per-fixture bound)")))
		Expect(time.Since(start)).To(BeNumerically("<", 20*time.Second))
	})

	It("outlasts a tool call that carries no timeoutMs", func() {
		Expect(lab.DefaultTimeout).To(BeNumerically(">", 120*time.Second+hostproc.DispatchMargin))
	})
})
