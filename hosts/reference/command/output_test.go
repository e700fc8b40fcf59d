//go:build unix

package command_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"os"
	"runtime"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/reference/command"
)

var _ = Describe("output capture", func() {
	var (
		root, spill string
		r           *command.Runner
	)
	BeforeEach(func() {
		root, spill = workspace()
		r = newRunner(root, func(o *command.Options) { o.SpillDir = spill })
	})

	It("bounds each stream independently to its last bytes, in whole code points", func() {
		res, err := r.Run(context.Background(), command.Request{
			Command:        `i=0; while [ $i -lt 100 ]; do printf 'é'; printf x >&2; i=$((i+1)); done`,
			MaxOutputBytes: 7,
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.StdoutTruncated).To(BeTrue())
		Expect(res.StderrTruncated).To(BeTrue())
		// The last 7 bytes start inside an é; its replacement character
		// would exceed the bound, so it is dropped.
		Expect(res.Stdout).To(Equal("ééé"))
		Expect(res.Stderr).To(Equal("xxxxxxx"))
		Expect(len(res.Stdout)).To(BeNumerically("<=", 7))
		Expect(res.StdoutBytes).To(Equal(int64(200)))
		Expect(res.StderrBytes).To(Equal(int64(100)))
	})

	It("leaves a stream that fits untruncated while the other one is truncated", func() {
		res, err := r.Run(context.Background(), command.Request{Command: "printf 12345678; printf ab >&2", MaxOutputBytes: 4})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Stdout).To(Equal("5678"))
		Expect(res.StdoutTruncated).To(BeTrue())
		Expect(res.Stderr).To(Equal("ab"))
		Expect(res.StderrTruncated).To(BeFalse())
	})

	It("keeps 64 MiB of output bounded in memory and complete in the spill file", func() {
		const size = 64 << 20
		line := "0123456789abcdef\n"
		want := sha256.New()
		for written := 0; written < size; written += len(line) {
			_, _ = io.WriteString(want, line[:min(len(line), size-written)])
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res := run(r, "yes 0123456789abcdef | head -c 67108864; printf done >&2")
		runtime.ReadMemStats(&after)

		Expect(res.Status).To(Equal(command.StatusExited))
		Expect(res.StdoutTruncated).To(BeTrue())
		Expect(res.StdoutBytes).To(Equal(int64(size)))
		Expect(len(res.Stdout)).To(Equal(command.DefaultMaxOutputBytes))
		Expect(after.TotalAlloc-before.TotalAlloc).To(BeNumerically("<", 16<<20), "allocations must not grow with the output")

		f, err := os.Open(res.StdoutSpill)
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		got := sha256.New()
		n, err := io.Copy(got, f)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(int64(size)))
		Expect(got.Sum(nil)).To(Equal(want.Sum(nil)))
		Expect(res.SpillErr).NotTo(HaveOccurred())

		tail, err := os.ReadFile(res.StdoutSpill)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Stdout).To(Equal(string(tail[size-command.DefaultMaxOutputBytes:])))
		Expect(os.ReadFile(res.StderrSpill)).To(Equal([]byte("done")))
	})

	It("decodes invalid UTF-8 with one replacement character per maximal subpart", func() {
		res := run(r, `printf 'a\200\342\202b\360\237\230\201'`)
		Expect(res.Stdout).To(Equal("a\uFFFD\uFFFDb😁"))
		Expect(utf8.ValidString(res.Stdout)).To(BeTrue())
	})

	It("writes no spill files without a spill directory", func() {
		r = newRunner(root)
		res := run(r, "echo hi")
		Expect(res.StdoutSpill).To(BeEmpty())
		Expect(res.StderrSpill).To(BeEmpty())
	})

	It("refuses a spill directory inside the workspace", func() {
		Expect(os.Mkdir(root+"/spill", 0o755)).To(Succeed())
		_, err := command.New(command.Options{Root: root, SpillDir: root + "/spill"})
		Expect(err).To(MatchError(ContainSubstring("inside the workspace")))
	})

	It("serializes the port result with the original field names and order", func() {
		res := run(r, "printf hi")
		res.DurationMs = 5
		var buf bytes.Buffer
		Expect(jsonEncode(&buf, res)).To(Succeed())
		Expect(strings.TrimSpace(buf.String())).To(Equal(
			`{"command":"printf hi","durationMs":5,"exitCode":0,"status":"exited","stdout":"hi","stderr":"","stdoutTruncated":false,"stderrTruncated":false}`))
	})
})
