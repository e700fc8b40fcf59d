//go:build unix

package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/wire"
)

// stubbornHost answers initialize (request 1) and shutdown (request 2) and
// then does not exit; it prints SESSION_PASSED to its stderr first.
const stubbornHost = `echo "passed=$SESSION_PASSED secret=$SESSION_SECRET" >&2
read line
echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1","host":{"name":"stubborn","version":"1"},"tools":[],"capabilities":{"store":false,"trace":false,"spill":false,"fingerprint":false}}}'
read line
echo '{"jsonrpc":"2.0","id":2,"result":{}}'
exec sleep 30
`

var _ = Describe("a host that must be killed", func() {
	It("fails Close, lists the incident and sees only the environment passed to it", func() {
		os.Setenv("SESSION_PASSED", "yes")
		os.Setenv("SESSION_SECRET", "no")
		DeferCleanup(os.Unsetenv, "SESSION_PASSED")
		DeferCleanup(os.Unsetenv, "SESSION_SECRET")
		dir := GinkgoT().TempDir()
		ws, store := filepath.Join(dir, "ws"), filepath.Join(dir, "store")
		Expect(os.Mkdir(ws, 0o755)).To(Succeed())
		Expect(os.Mkdir(store, 0o755)).To(Succeed())
		h, err := StartHost(context.Background(), HostConfig{Argv: []string{"sh", "-c", stubbornHost}, Workspace: ws, StoreDir: store,
			PassEnv: []string{"SESSION_PASSED"}, Home: filepath.Join(dir, "home")})
		Expect(err).NotTo(HaveOccurred())
		err = h.Close()
		var pe *wire.ProtocolError
		Expect(errors.As(err, &pe)).To(BeTrue(), "Close returned %v", err)
		Expect(err).To(MatchError(ContainSubstring("the host did not exit within 5s of shutdown; killed")))
		Expect(h.Incidents()).To(ContainElement("the host did not exit within 5s of shutdown; killed"))
		Expect(h.Stderr()).To(Equal("passed=yes secret="))
	})
})
