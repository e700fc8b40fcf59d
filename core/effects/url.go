package effects

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
)

// specialSchemes are the WHATWG URL special schemes that need a host.
var specialSchemes = map[string]bool{"http": true, "https": true, "ws": true, "wss": true, "ftp": true}

// parseURL parses an absolute URL the way the original runtime's WHATWG URL
// parser accepts it, closely enough for the research-source rules: leading
// and trailing C0 controls and spaces are trimmed, ASCII tabs and newlines
// removed, a scheme is required, and special schemes need a host and a port
// in range.
func parseURL(raw string) (*url.URL, error) {
	s := strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "" {
		return nil, errors.New("relative URL without a base")
	}
	if specialSchemes[u.Scheme] && u.Opaque != "" {
		// "https:example.com" is "https://example.com/" to a WHATWG parser.
		if u, err = url.Parse(u.Scheme + "://" + strings.TrimLeft(u.Opaque, "/") + rest(u)); err != nil {
			return nil, err
		}
	}
	if specialSchemes[u.Scheme] {
		if u.Hostname() == "" {
			return nil, errors.New("special URL without a host")
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n > 65535 {
				return nil, errors.New("port out of range")
			}
		}
	}
	return u, nil
}

func rest(u *url.URL) string {
	var b strings.Builder
	if u.ForceQuery || u.RawQuery != "" {
		b.WriteString("?" + u.RawQuery)
	}
	if u.Fragment != "" {
		b.WriteString("#" + u.EscapedFragment())
	}
	return b.String()
}

func hasUserInfo(u *url.URL) bool {
	if u.User == nil {
		return false
	}
	pw, _ := u.User.Password()
	return u.User.Username() != "" || pw != ""
}

// NormalizeResearchURL returns the URL under which the runtime stores a
// research source (CONTRACTS §7.7 step 7): the fragment is removed, scheme
// and host are lower-cased, a default port is dropped and an empty path of
// an http(s) URL becomes "/", as a WHATWG serializer would write it. It
// fails for a URL CheckResearchSource would reject as unparsable.
func NormalizeResearchURL(raw string) (string, error) {
	u, err := parseURL(raw)
	if err != nil {
		return "", err
	}
	u.Fragment, u.RawFragment = "", ""
	if specialSchemes[u.Scheme] {
		host, port := strings.ToLower(u.Hostname()), u.Port()
		if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") ||
			(u.Scheme == "ws" && port == "80") || (u.Scheme == "wss" && port == "443") || (u.Scheme == "ftp" && port == "21") {
			port = ""
		}
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
		if port != "" {
			host += ":" + port
		}
		u.Host = host
		if u.Path == "" && u.RawPath == "" {
			u.Path = "/"
		}
	}
	return u.String(), nil
}
