package suite

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/internal/rapidtest"
	"github.com/onsi/gomega"
	"pgregory.net/rapid"
)

// Main is a package's TestMain: it runs each setup function in order (one
// may not return, when the test binary is re-executed as a helper process),
// then the tests, and exits with their status.
func Main(m *testing.M, setup ...func()) {
	for _, f := range setup {
		f()
	}
	os.Exit(m.Run())
}

// RapidChecks returns a setup function for [Main] that parses the command
// line and makes rapid run n cases per property unless -rapid.checks or
// RAPID_CHECKS says otherwise.
func RapidChecks(n int) func() {
	return func() {
		flag.Parse()
		rapidtest.DefaultChecks(n)
	}
}

// ExpectPropertyFails runs prop against a recording rapid.TB, shrinking for
// at most shrink, and asserts that rapid finds a counterexample for the
// broken variant name. It returns rapid's log.
func ExpectPropertyFails(name string, shrink time.Duration, prop func(*rapid.T)) string {
	failed, log := rapidtest.Check(name, shrink, prop)
	gomega.ExpectWithOffset(1, failed).To(gomega.BeTrue(), "the property did not catch the broken variant %q", name)
	return log
}

// BenchmarkParse runs one sub-benchmark per size n, named "files=n", that
// parses the document doc(n) with parse: the time per file must not grow
// with the count.
func BenchmarkParse(b *testing.B, sizes []int, doc func(n int) []byte, parse func([]byte) error) {
	for _, n := range sizes {
		data := doc(n)
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := parse(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// WriteFiles writes each file of files, a slash-separated path below root
// and its content, creating its folders; a failed write fails the spec.
func WriteFiles(root string, files map[string]string) {
	for p, content := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		gomega.ExpectWithOffset(1, os.MkdirAll(filepath.Dir(abs), 0o755)).To(gomega.Succeed())
		gomega.ExpectWithOffset(1, os.WriteFile(abs, []byte(content), 0o644)).To(gomega.Succeed())
	}
}
