package doubles

import (
	"net"
	"net/url"
	"strings"
)

// publicURL parses raw as a public HTTP(S) URL (LAB_AND_HOSTS §21
// research.fetch) and returns its normalized form and host name. It
// refuses other schemes, user information, private, loopback, link-local,
// documentation and multicast addresses, single-label names and the
// special-use names (localhost, local, internal, home, lan, test, invalid,
// example, arpa, and their subdomains).
func publicURL(raw string) (href, hostname string, ok bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Opaque != "" {
		return "", "", false
	}
	if u.User != nil {
		if _, hasPassword := u.User.Password(); hasPassword || u.User.Username() != "" {
			return "", "", false
		}
	}
	host := strings.ToLower(u.Hostname())
	host = strings.TrimSuffix(host, ".")
	if host == "" || !publicHost(host) {
		return "", "", false
	}
	display := strings.ToLower(u.Hostname())
	if strings.Contains(display, ":") {
		display = "[" + display + "]"
	}
	authority := display
	if p := u.Port(); p != "" && !(u.Scheme == "http" && p == "80") && !(u.Scheme == "https" && p == "443") {
		authority += ":" + p
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	href = u.Scheme + "://" + authority + path
	if u.RawQuery != "" || u.ForceQuery {
		href += "?" + u.RawQuery
	}
	if u.Fragment != "" {
		href += "#" + u.EscapedFragment()
	}
	return href, display, true
}

var specialNames = []string{"localhost", "local", "internal", "home", "lan", "test", "invalid", "example", "arpa"}

func publicHost(host string) bool {
	if strings.Contains(host, ":") {
		ip := net.ParseIP(host)
		if ip == nil {
			return false
		}
		if v4 := ip.To4(); v4 != nil {
			return publicIPv4(v4)
		}
		return publicIPv6(ip)
	}
	if ip := net.ParseIP(host); ip != nil {
		return publicIPv4(ip.To4())
	}
	if !strings.Contains(host, ".") {
		return false
	}
	for _, s := range specialNames {
		if host == s || strings.HasSuffix(host, "."+s) {
			return false
		}
	}
	return true
}

func publicIPv4(b net.IP) bool {
	if len(b) != 4 {
		return false
	}
	a, c, d := b[0], b[1], b[2]
	switch {
	case a == 0, a == 10, a == 127, a >= 224:
	case a == 100 && c >= 64 && c <= 127:
	case a == 169 && c == 254:
	case a == 172 && c >= 16 && c <= 31:
	case a == 192 && c == 0 && (d == 0 || d == 2):
	case a == 192 && c == 168:
	case a == 198 && (c == 18 || c == 19):
	case a == 198 && c == 51 && d == 100:
	case a == 203 && c == 0 && d == 113:
	default:
		return true
	}
	return false
}

func publicIPv6(ip net.IP) bool {
	switch {
	case ip.IsUnspecified(), ip.IsLoopback():
	case ip[0]&0xfe == 0xfc: // unique local fc00::/7
	case ip[0] == 0xfe && ip[1]&0xc0 == 0x80: // link-local fe80::/10
	case ip[0] == 0xfe && ip[1]&0xc0 == 0xc0: // site-local fec0::/10
	case ip[0] == 0xff: // multicast
	case ip[0] == 0x20 && ip[1] == 0x01 && ip[2] == 0x0d && ip[3] == 0xb8: // documentation
	default:
		return true
	}
	return false
}
