package research

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// redacted replaces a credential in provider text.
const redacted = "[REDACTED]"

// bearer matches a bearer token whatever its value.
var bearer = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)bearer\s+[^\s"'<>]+`) })

// containsSecret reports whether v holds secret literally, URL-escaped
// (in any case) or once unescaped.
func containsSecret(v, secret string) bool {
	if secret == "" {
		return false
	}
	if strings.Contains(v, secret) {
		return true
	}
	for _, esc := range []string{url.QueryEscape(secret), url.PathEscape(secret)} {
		if strings.Contains(strings.ToLower(v), strings.ToLower(esc)) {
			return true
		}
	}
	if u, err := url.QueryUnescape(v); err == nil && strings.Contains(u, secret) {
		return true
	}
	if u, err := url.PathUnescape(v); err == nil && strings.Contains(u, secret) {
		return true
	}
	return false
}

// hasSecret reports whether v holds any of secrets.
func hasSecret(v string, secrets []string) bool {
	for _, s := range secrets {
		if containsSecret(v, s) {
			return true
		}
	}
	return false
}

// redactAll replaces every secret in v, literal or URL-escaped, and every
// bearer token, with [REDACTED].
func redactAll(v string, secrets []string) string {
	for _, s := range secrets {
		if s == "" {
			continue
		}
		v = strings.ReplaceAll(v, s, redacted)
		for _, esc := range []string{url.QueryEscape(s), url.PathEscape(s)} {
			if esc != s {
				v = regexp.MustCompile(`(?i)`+regexp.QuoteMeta(esc)).ReplaceAllString(v, redacted)
			}
		}
	}
	return bearer().ReplaceAllString(v, "Bearer "+redacted)
}
