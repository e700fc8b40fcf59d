//go:build unix

package workspace_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

var _ = Describe("reading a path without symbolic links in one stat", func() {
	// read is ReadText of path on a root of dir with faults, as text
	// comparable between the fast and the general path.
	read := func(dir string, faults workspace.Faults, path string) string {
		GinkgoHelper()
		root, err := workspace.OpenWithFaults(dir, faults)
		Expect(err).NotTo(HaveOccurred())
		res, err := root.ReadText(context.Background(), workspace.ReadRequest{Path: path})
		return fmt.Sprintf("%+v | %v", res, err)
	}

	It("answers every path as the general resolution does, and answers symlink-free ones itself", func() {
		base := GinkgoT().TempDir()
		dir := filepath.Join(base, "ws")
		outside := filepath.Join(base, "outside.txt")
		Expect(os.WriteFile(outside, []byte("secret\n"), 0o644)).To(Succeed())
		files := map[string]string{"a.txt": "hello\n", "sub/b.txt": "b\nc", "big.bin": "\xff\xfe", "empty.txt": ""}
		for rel, content := range files {
			Expect(os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(dir, rel), []byte(content), 0o644)).To(Succeed())
		}
		Expect(os.Symlink("a.txt", filepath.Join(dir, "link.txt"))).To(Succeed())
		Expect(os.Symlink("sub", filepath.Join(dir, "linkdir"))).To(Succeed())
		Expect(os.Symlink(outside, filepath.Join(dir, "escape.txt"))).To(Succeed())
		Expect(os.Symlink("missing", filepath.Join(dir, "dangling"))).To(Succeed())
		if runtime.GOOS != "windows" {
			Expect(syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644)).To(Succeed())
		}
		paths := []string{"a.txt", "sub/b.txt", "big.bin", "empty.txt", ".", "sub", "link.txt", "linkdir/b.txt",
			"escape.txt", "dangling", "fifo", "missing.txt", "a.txt/x", "../outside.txt", "sub/../a.txt", "/etc/passwd"}
		faults := []workspace.Faults{{}, {FollowSymlinkEscapes: true}, {AcceptDotDot: true}, {PrefixContainment: true}}
		for _, f := range faults {
			for _, p := range paths {
				_, restore := workspace.UseFastStat(false)
				want := read(dir, f, p)
				restore()
				answered, restore := workspace.UseFastStat(true)
				got := read(dir, f, p)
				restore()
				Expect(got).To(Equal(want), "%s with %+v", p, f)
				if runtime.GOOS == "linux" && (p == "a.txt" || p == "sub/b.txt" || p == "fifo") {
					Expect(answered()).To(Equal(1), "%s was not answered by the one-call stat", p)
				}
			}
		}
	})

	It("refuses a file once an ancestor of the root became a symbolic link, as the general path does", func() {
		base := GinkgoT().TempDir()
		real := filepath.Join(base, "real")
		Expect(os.MkdirAll(filepath.Join(real, "ws"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(real, "ws", "a.txt"), []byte("a\n"), 0o644)).To(Succeed())
		for _, on := range []bool{false, true} {
			root, err := workspace.Open(filepath.Join(real, "ws"))
			Expect(err).NotTo(HaveOccurred())
			moved := filepath.Join(base, fmt.Sprintf("moved-%v", on))
			Expect(os.Rename(real, moved)).To(Succeed())
			Expect(os.Symlink(moved, real)).To(Succeed())
			_, restore := workspace.UseFastStat(on)
			_, err = root.ReadText(context.Background(), workspace.ReadRequest{Path: "a.txt"})
			restore()
			Expect(err).To(HaveOccurred(), "fast path %v", on)
			Expect(workspace.CodeOf(err)).To(BeEquivalentTo("PERMISSION_DENIED"), "fast path %v: %v", on, err)
			Expect(os.Remove(real)).To(Succeed())
			Expect(os.Rename(moved, real)).To(Succeed())
		}
	})

	It("reads a file whole whatever size the stat said, as os.ReadFile does", func() {
		dir := GinkgoT().TempDir()
		for _, n := range []int{0, 1, 511, 512, 513, 4096, 70000} {
			p := filepath.Join(dir, fmt.Sprint(n))
			data := make([]byte, n)
			for i := range data {
				data[i] = byte('a' + i%26)
			}
			Expect(os.WriteFile(p, data, 0o644)).To(Succeed())
			want, err := os.ReadFile(p)
			Expect(err).NotTo(HaveOccurred())
			for _, hint := range []int64{int64(n), 0, int64(n) / 2, int64(n) * 2, 511, 512} {
				got, err := workspace.ReadSized(p, hint)
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(want), "size %d, hint %d", n, hint)
			}
		}
		_, err := workspace.ReadSized(filepath.Join(dir, "missing"), 0)
		Expect(errors.Is(err, fs.ErrNotExist)).To(BeTrue(), "%v", err)
	})
})
