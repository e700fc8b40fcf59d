package research

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"
)

// The environment variables [ConfigFromEnv] reads.
const (
	// EnvResearch set to "off" disables the adapter: the host backs
	// neither research tool.
	EnvResearch = "CONFORM_RESEARCH"
	// EnvSearchURL is the search endpoint; unset, the host does not back
	// research.search.
	EnvSearchURL = "CONFORM_RESEARCH_SEARCH_URL"
	// EnvHeaders is a JSON object of request headers (name → value) sent
	// to the search endpoint only, e.g. {"Authorization":"Bearer …"}.
	EnvHeaders = "CONFORM_RESEARCH_HEADERS"
)

// Bounds of the adapter. The fetch and search bounds are those of the
// original host's research port and tool executor.
const (
	// DefaultFetchBytes is the content byte limit when the call gives none.
	DefaultFetchBytes = 12000
	// MaxFetchBytes caps a call's maxBytes (the schema allows up to
	// 200000; the original executor clamps to 12000).
	MaxFetchBytes = 12000
	// MaxResponseBytes bounds the bytes read from any response body.
	MaxResponseBytes = 1 << 20
	// MaxURLBytes bounds a fetch URL and a search hit URL.
	MaxURLBytes = 4096
	// MaxQueryBytes bounds a search query.
	MaxQueryBytes = 2048
	// DefaultSearchResults is the hit count when the call gives none.
	DefaultSearchResults = 3
	// MaxSearchResults caps a call's maxResults.
	MaxSearchResults = 10
	// MaxTitleBytes and MaxSnippetBytes bound a hit's title and snippet.
	MaxTitleBytes   = 512
	MaxSnippetBytes = 2048
	// MaxRedirects bounds the redirects one fetch follows.
	MaxRedirects = 5
	// DefaultTimeout is the time limit of one request, body included.
	DefaultTimeout = 30 * time.Second
)

// Config configures the adapter. The zero value enables research.fetch
// against public hosts, with no search endpoint.
type Config struct {
	// Disabled switches the adapter off: the host backs no research tool.
	Disabled bool
	// SearchURL is the absolute http(s) URL of the search endpoint (see
	// the package documentation); "" means no search. It must carry no
	// user information: credentials belong in Headers.
	SearchURL string
	// Headers are request headers sent to the search endpoint only,
	// typically credentials. Every value is treated as a secret.
	Headers map[string]string
	// Provider names the search provider in each hit; "" means the search
	// endpoint's host name.
	Provider string
	// Timeout is the time limit of one request, body included; 0 means
	// DefaultTimeout. A call's own deadline still applies.
	Timeout time.Duration
	// AllowPrivateHosts lets fetch reach loopback, private and reserved
	// hosts. It is a test seam for fetching from a loopback server a test
	// starts; a conformant host never sets it.
	AllowPrivateHosts bool
	// AllowLoopback are the loopback addresses ("127.0.0.1:PORT",
	// "[::1]:PORT") fetch may read although they are not public: the
	// session's explicit allowance for a source its harness serves
	// (initialize research.allowLoopback). Every other non-public host
	// stays refused.
	AllowLoopback []string
	// Faults switch on the mutants' deviations; the zero value is
	// conformant.
	Faults Faults
}

// ConfigFromEnv reads a Config from the environment through getenv (see
// EnvResearch, EnvSearchURL, EnvHeaders). It fails when EnvHeaders is not
// a JSON object of strings.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	cfg := Config{
		Disabled:  strings.EqualFold(strings.TrimSpace(getenv(EnvResearch)), "off"),
		SearchURL: strings.TrimSpace(getenv(EnvSearchURL)),
	}
	if raw := strings.TrimSpace(getenv(EnvHeaders)); raw != "" {
		if err := json.Unmarshal([]byte(raw), &cfg.Headers); err != nil {
			// The value holds credentials: never echo it.
			return Config{}, fmt.Errorf("%s is not a JSON object of header strings", EnvHeaders)
		}
	}
	return cfg, nil
}

// check validates the configuration and returns the parsed search URL
// (nil without one) and the secrets, longest first.
func (c Config) check() (*url.URL, []string, error) {
	var secrets []string
	for name, value := range c.Headers {
		if name == "" || strings.ContainsAny(name, " \t\r\n:") {
			return nil, nil, fmt.Errorf("research header name %q is invalid", name)
		}
		if strings.ContainsAny(value, "\r\n\x00") {
			return nil, nil, fmt.Errorf("research header %q has an invalid value", name)
		}
		if v := strings.TrimSpace(value); v != "" {
			secrets = append(secrets, v)
		}
		// "Bearer <token>", "Basic <credentials>": the token alone is a
		// secret too, the scheme word is not.
		if f := strings.Fields(value); len(f) > 1 {
			secrets = append(secrets, f[1:]...)
		}
	}
	sort.Slice(secrets, func(i, j int) bool {
		if len(secrets[i]) != len(secrets[j]) {
			return len(secrets[i]) > len(secrets[j])
		}
		return secrets[i] < secrets[j]
	})
	for _, a := range c.AllowLoopback {
		if !loopbackAddress(a) {
			return nil, nil, fmt.Errorf("research loopback allowance %q is not 127.0.0.1:PORT or [::1]:PORT", a)
		}
	}
	if c.SearchURL == "" {
		return nil, secrets, nil
	}
	u, err := url.Parse(c.SearchURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, nil, fmt.Errorf("research search URL %q is not an absolute http(s) URL", redactAll(c.SearchURL, secrets))
	}
	if u.User != nil {
		return nil, nil, fmt.Errorf("research search URL must not carry user information; put credentials in headers")
	}
	for _, s := range secrets {
		if containsSecret(c.SearchURL, s) {
			return nil, nil, fmt.Errorf("research search URL must not carry a header credential")
		}
	}
	u.Fragment, u.RawFragment = "", ""
	return u, secrets, nil
}
