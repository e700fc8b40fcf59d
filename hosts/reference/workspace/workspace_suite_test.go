package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
	"github.com/galaxy-stack/conform/internal/suite"
)

func TestWorkspace(t *testing.T) {
	suite.Run(t, "Workspace Suite")
}

var ctx = context.Background()

// fixture is a temporary workspace with an "outside" sibling directory for
// escape attempts.
type fixture struct {
	dir     string // workspace directory
	outside string // directory outside the workspace
	root    *workspace.Root
}

func newFixture() *fixture {
	base := GinkgoT().TempDir()
	f := &fixture{dir: filepath.Join(base, "ws"), outside: filepath.Join(base, "outside")}
	Expect(os.Mkdir(f.dir, 0o755)).To(Succeed())
	Expect(os.Mkdir(f.outside, 0o755)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(f.outside, "secret.txt"), []byte("secret\n"), 0o644)).To(Succeed())
	root, err := workspace.Open(f.dir)
	Expect(err).NotTo(HaveOccurred())
	f.root = root
	return f
}

func (f *fixture) abs(rel string) string { return filepath.Join(f.dir, filepath.FromSlash(rel)) }

func (f *fixture) write(rel, content string) {
	GinkgoHelper()
	p := f.abs(rel)
	Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	Expect(os.WriteFile(p, []byte(content), 0o644)).To(Succeed())
}

func (f *fixture) read(rel string) string {
	GinkgoHelper()
	b, err := os.ReadFile(f.abs(rel))
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

func (f *fixture) info(rel string) os.FileInfo {
	GinkgoHelper()
	fi, err := os.Lstat(f.abs(rel))
	Expect(err).NotTo(HaveOccurred())
	return fi
}

// symlink creates a link or skips the spec where the system refuses.
func (f *fixture) symlink(target, rel string) {
	GinkgoHelper()
	if err := os.Symlink(target, f.abs(rel)); err != nil {
		Skip("symlinks unavailable: " + err.Error())
	}
}

// matchesAfterWrite captures the workspace state binding active, writes
// content to rel and reports whether VerifyState still finds it unchanged.
func (f *fixture) matchesAfterWrite(active []port.ActiveFile, rel, content string) bool {
	GinkgoHelper()
	s, err := f.root.CaptureState(ctx, active, nil)
	Expect(err).NotTo(HaveOccurred())
	f.write(rel, content)
	v, err := f.root.VerifyState(ctx, s)
	Expect(err).NotTo(HaveOccurred())
	return v.Matches
}

// haveCode matches an error carrying the given port error code.
func haveCode(code hosterr.Code) OmegaMatcher {
	return WithTransform(workspace.CodeOf, Equal(code))
}

func sha(s string) string { return workspace.SHA256Hex([]byte(s)) }
