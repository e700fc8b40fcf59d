package research

import (
	"net/netip"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("public hosts", func() {
	DescribeTable("publicHost",
		func(host string, public bool) {
			Expect(publicHost(host)).To(Equal(public))
		},
		Entry("a public name", "go.dev", true),
		Entry("a public name with a trailing dot", "docs.python.org.", true),
		Entry("a public IPv4 address", "93.184.216.34", true),
		Entry("a public IPv6 address", "[2606:4700::1111]", true),
		Entry("a single label", "intranet", false),
		Entry("localhost", "localhost", false),
		Entry("a .localhost name", "app.localhost", false),
		Entry("a .internal name", "db.corp.internal", false),
		Entry("a .test name", "a.test", false),
		Entry("an .example name", "www.example", false),
		Entry("an .arpa name", "1.0.0.127.in-addr.arpa", false),
		Entry("a numeric last label", "1.0x7f", false),
		Entry("an underscore label", "a_b.com", false),
		Entry("0/8", "0.1.2.3", false),
		Entry("10/8", "10.0.0.1", false),
		Entry("loopback", "127.0.0.1", false),
		Entry("carrier-grade NAT", "100.64.0.1", false),
		Entry("link-local", "169.254.169.254", false),
		Entry("172.16/12", "172.31.255.255", false),
		Entry("172.32 is public", "172.32.0.1", true),
		Entry("192.0.0/24", "192.0.0.8", false),
		Entry("TEST-NET-1", "192.0.2.1", false),
		Entry("192.168/16", "192.168.1.1", false),
		Entry("benchmarking", "198.19.0.1", false),
		Entry("TEST-NET-2", "198.51.100.7", false),
		Entry("TEST-NET-3", "203.0.113.9", false),
		Entry("multicast", "224.0.0.1", false),
		Entry("broadcast", "255.255.255.255", false),
		Entry("IPv6 loopback", "::1", false),
		Entry("IPv6 unspecified", "::", false),
		Entry("unique local", "fd00::1", false),
		Entry("IPv6 link-local", "fe80::1", false),
		Entry("IPv6 multicast", "ff02::1", false),
		Entry("IPv6 documentation", "2001:db8::1", false),
		Entry("6to4", "2002:7f00:1::", false),
		Entry("IPv4-mapped loopback", "::ffff:127.0.0.1", false),
		Entry("IPv4-mapped public", "::ffff:8.8.8.8", true),
	)

	DescribeTable("parseSourceURL",
		func(raw string, allowPrivate, ok bool) {
			Expect(parseSourceURL(raw, allowPrivate) != nil).To(Equal(ok))
		},
		Entry("https", "https://go.dev/doc/", false, true),
		Entry("http", "http://go.dev", false, true),
		Entry("ftp", "ftp://go.dev/", false, false),
		Entry("file", "file:///etc/passwd", false, false),
		Entry("user info", "https://user:pw@go.dev/", false, false),
		Entry("a space", "https://go.dev/a b", false, false),
		Entry("a backslash", "https://go.dev\\@evil.com/", false, false),
		Entry("loopback", "http://127.0.0.1:8080/", false, false),
		Entry("loopback with the test seam", "http://127.0.0.1:8080/", true, true),
		Entry("user info even with the test seam", "http://u@127.0.0.1/", true, false),
	)

	It("the dialer refuses every non-public address it is about to connect to", func() {
		Expect(refusePrivate("tcp", "127.0.0.1:80", nil)).To(MatchError(errPrivateAddress))
		Expect(refusePrivate("tcp", "[fe80::1%eth0]:443", nil)).To(MatchError(errPrivateAddress))
		Expect(refusePrivate("tcp", "10.1.2.3:443", nil)).To(MatchError(errPrivateAddress))
		Expect(refusePrivate("tcp", "8.8.8.8:443", nil)).To(Succeed())
		Expect(publicAddr(netip.MustParseAddr("2606:4700::1111"))).To(BeTrue())
	})
})
