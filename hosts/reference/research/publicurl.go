package research

import (
	"net"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// reservedNames are the names, and the suffixes after a dot, that never
// name a public host.
var reservedNames = []string{"localhost", "local", "internal", "home", "lan", "test", "invalid", "example", "arpa"}

// label is one DNS label of a public host name.
var label = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`) })

// numericLabel is a last label a URL parser would read as an IPv4 part.
var numericLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:0x[0-9a-f]*|[0-9]+)$`) })

// parseSourceURL parses raw as the URL of a source to fetch: at most
// MaxURLBytes, no spaces, controls or backslashes, scheme http or https,
// no user information, a host; and, unless allowPrivate, a public host
// (publicHost). It returns nil when raw is not acceptable.
func parseSourceURL(raw string, allowPrivate bool) *url.URL {
	if len(raw) > MaxURLBytes || strings.ContainsFunc(raw, func(r rune) bool { return r <= 0x20 || r == 0x7f || r == '\\' }) {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.Opaque != "" || u.Hostname() == "" {
		return nil
	}
	if !allowPrivate && !publicHost(u.Hostname()) {
		return nil
	}
	return u
}

// sourceURL parses raw as a source the client may fetch: a public one,
// one the configuration's loopback allowance names exactly (scheme http,
// host and port), or any when the configuration allows private hosts.
func (c *Client) sourceURL(raw string) *url.URL {
	if u := parseSourceURL(raw, c.cfg.AllowPrivateHosts); u != nil {
		return u
	}
	u := parseSourceURL(raw, true)
	if u == nil || u.Scheme != "http" || u.Port() == "" {
		return nil
	}
	if slices.Contains(c.cfg.AllowLoopback, net.JoinHostPort(u.Hostname(), u.Port())) {
		return u
	}
	return nil
}

// loopbackAddress reports whether a is "127.0.0.1:PORT" or "[::1]:PORT"
// with a port in 1–65535.
func loopbackAddress(a string) bool {
	host, port, err := net.SplitHostPort(a)
	if err != nil || (host != "127.0.0.1" && host != "::1") || net.JoinHostPort(host, port) != a {
		return false
	}
	n, err := strconv.Atoi(port)
	return err == nil && n >= 1 && n <= 65535 && strconv.Itoa(n) == port
}

// publicHost reports whether host (a URL's host name, brackets already
// removed) names a public host: a public IPv4 or IPv6 address, or a
// dotted DNS name of valid labels whose last label is not numeric and
// that is not, and does not end in, a reserved name.
func publicHost(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), "."))
	if addr, err := netip.ParseAddr(host); err == nil {
		return publicAddr(addr)
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 || numericLabel().MatchString(labels[len(labels)-1]) {
		return false
	}
	for _, l := range labels {
		if !label().MatchString(l) {
			return false
		}
	}
	for _, r := range reservedNames {
		if host == r || strings.HasSuffix(host, "."+r) {
			return false
		}
	}
	return true
}

// publicAddr reports whether addr is a public address. IPv4 rejects
// 0/8, 10/8, 127/8, 100.64/10, 169.254/16, 172.16/12, 192.0.0/24,
// 192.0.2/24, 192.168/16, 198.18/15, 198.51.100/24, 203.0.113/24 and
// everything from 224/4 up; IPv4-mapped IPv6 uses the IPv4 rule; other
// IPv6 must be global unicast (2000::/3) outside 6to4 (2002::/16),
// 2001::/23, documentation (2001:db8::/32) and 3fff::/20.
func publicAddr(addr netip.Addr) bool {
	addr = addr.WithZone("")
	if addr.Is4() || addr.Is4In6() {
		b := addr.Unmap().As4()
		a, c, d := b[0], b[1], b[2]
		return !(a == 0 || a == 10 || a == 127 || a >= 224 ||
			(a == 100 && c >= 64 && c <= 127) ||
			(a == 169 && c == 254) ||
			(a == 172 && c >= 16 && c <= 31) ||
			(a == 192 && c == 168) ||
			(a == 192 && c == 0 && (d == 0 || d == 2)) ||
			(a == 198 && (c == 18 || c == 19)) ||
			(a == 198 && c == 51 && d == 100) ||
			(a == 203 && c == 0 && d == 113))
	}
	b := addr.As16()
	g0 := uint16(b[0])<<8 | uint16(b[1])
	g1 := uint16(b[2])<<8 | uint16(b[3])
	switch {
	case b[0]&0xe0 != 0x20:
		return false
	case g0 == 0x2002:
		return false
	case g0 == 0x2001 && (g1 < 0x0200 || g1 == 0x0db8):
		return false
	case g0 == 0x3fff && g1 < 0x1000:
		return false
	}
	return true
}
