package items

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// fingerprintSeesEveryEntry captures the relevant-workspace fingerprint,
// then makes one change at a time that the contract says the fingerprint
// covers (a file's mode, a dotfile's bytes, an added empty directory), verifying after each
// that the host no longer matches and, once the change is undone, matches
// again. Last, a capture that declares a stale content hash for an active
// file must be the port failure PRECONDITION_FAILED.
func fingerprintSeesEveryEntry(c *kit.TestContext) {
	s := kit.StartDirect(c, map[string]string{"a.txt": "alpha\n", "src/b.txt": "beta\n", ".env": "LEVEL=1\n"}, nil)
	if !s.H.Init.Capabilities.Fingerprint {
		kit.NotApplicable("the host declares no workspace fingerprint (capabilities.fingerprint is false)")
	}
	ctx, cancel := s.Ctx()
	defer cancel()
	state, err := s.H.Client().CaptureFingerprint(ctx, nil, nil)
	Expect(err).NotTo(HaveOccurred(), "workspace/fingerprint capture of a small workspace fails")
	verify := func(want bool, after string) {
		_, matches, err := s.H.Client().VerifyFingerprint(ctx, state)
		Expect(err).NotTo(HaveOccurred(), "workspace/fingerprint verify %s fails", after)
		if want {
			Expect(matches).To(BeTrue(), "workspace/fingerprint verify %s says the workspace does not match its capture, though it is as captured", after)
		} else {
			Expect(matches).To(BeFalse(), "workspace/fingerprint verify %s still matches the capture; the fingerprint must change with the bytes or mode of every workspace entry", after)
		}
	}
	verify(true, "of the unchanged workspace")

	a := filepath.Join(s.Workspace, "a.txt")
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(a)
		Expect(err).NotTo(HaveOccurred(), "the harness cannot stat a.txt")
		mode := fi.Mode().Perm()
		Expect(os.Chmod(a, mode^0o100)).To(Succeed(), "the harness cannot change the mode of a.txt")
		verify(false, fmt.Sprintf("after only the mode of a.txt changed (%#o → %#o)", mode, mode^0o100))
		Expect(os.Chmod(a, mode)).To(Succeed(), "the harness cannot restore the mode of a.txt")
		verify(true, "after the mode of a.txt was restored")
	}

	env := filepath.Join(s.Workspace, ".env")
	Expect(os.WriteFile(env, []byte("LEVEL=2\n"), 0o644)).To(Succeed(), "the harness cannot edit .env")
	verify(false, "after only .env, a file whose name starts with a dot, was edited")
	Expect(os.WriteFile(env, []byte("LEVEL=1\n"), 0o644)).To(Succeed(), "the harness cannot restore .env")
	verify(true, "after .env was restored")

	empty := filepath.Join(s.Workspace, "src", "empty")
	Expect(os.Mkdir(empty, 0o755)).To(Succeed(), "the harness cannot make src/empty")
	verify(false, "after only an empty directory src/empty was added")
	Expect(os.Remove(empty)).To(Succeed(), "the harness cannot remove src/empty")
	verify(true, "after src/empty was removed again")

	good, stale := kit.HashOf("alpha\n"), kit.HashOf("alpha, as it was once\n")
	_, err = s.H.Client().CaptureFingerprint(ctx, []wire.ActiveFile{{Path: "a.txt", Kind: "file", ContentHash: &good}}, nil)
	Expect(err).NotTo(HaveOccurred(), "workspace/fingerprint capture of active file a.txt with its current content hash fails")
	_, err = s.H.Client().CaptureFingerprint(ctx, []wire.ActiveFile{{Path: "a.txt", Kind: "file", ContentHash: &stale}}, nil)
	Expect(err).To(HaveOccurred(), "workspace/fingerprint capture succeeded for active file a.txt declared with a content hash it no longer has; a stale active-file hash is the port failure PRECONDITION_FAILED")
	pe, ok := wire.AsPortError(err)
	Expect(ok).To(BeTrue(), "workspace/fingerprint capture with a stale active-file hash failed, but not as a port failure (-32001): %v", err)
	Expect(pe.Code).To(Equal("PRECONDITION_FAILED"), "workspace/fingerprint capture with a stale active-file hash is a port failure %s; the contract says PRECONDITION_FAILED", pe.Code)
}
