package research

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"syscall"
	"time"
)

// userAgent identifies the adapter's requests.
const userAgent = "conform-reference-research/1"

// A Client is the research adapter. It is safe for concurrent use.
type Client struct {
	cfg       Config
	timeout   time.Duration
	searchURL *url.URL // nil without a search endpoint
	secrets   []string
	fetchHTTP *http.Client
	findHTTP  *http.Client
}

// New returns the adapter configured by cfg, or an error when the
// configuration is invalid (a search URL that is not absolute http(s) or
// carries user information or a header credential; a malformed header).
// It returns a nil Client and no error when cfg.Disabled.
func New(cfg Config) (*Client, error) {
	if cfg.Disabled {
		return nil, nil
	}
	searchURL, secrets, err := cfg.check()
	if err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg, timeout: cfg.Timeout, searchURL: searchURL, secrets: secrets}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	dialer := &net.Dialer{Timeout: c.timeout, KeepAlive: -1}
	if !cfg.AllowPrivateHosts {
		dialer.Control = refusePrivateExcept(cfg.AllowLoopback)
	}
	c.fetchHTTP = &http.Client{
		Transport:     newTransport(dialer),
		CheckRedirect: c.checkRedirect,
	}
	// The search endpoint is the host's own choice and may be local; it
	// receives the credentials, so it is never redirected elsewhere.
	c.findHTTP = &http.Client{
		Transport:     newTransport(&net.Dialer{Timeout: c.timeout, KeepAlive: -1}),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return c, nil
}

// CanSearch reports whether a search endpoint is configured.
func (c *Client) CanSearch() bool { return c != nil && c.searchURL != nil }

// newTransport is a transport that never uses an environment proxy (the
// public-host check must apply to the source itself) and keeps no idle
// connections between calls.
func newTransport(d *net.Dialer) *http.Transport {
	return &http.Transport{
		Proxy:                  nil,
		DialContext:            d.DialContext,
		TLSHandshakeTimeout:    10 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
		DisableKeepAlives:      true,
		ForceAttemptHTTP2:      true,
	}
}

// errPrivateAddress is returned by the dialer for a non-public address.
var errPrivateAddress = errors.New("the address is not public")

// errTooManyRedirects and errRedirectNotPublic stop a redirect chain.
var (
	errTooManyRedirects  = errors.New("too many redirects")
	errRedirectNotPublic = errors.New("redirect to a non-public URL")
)

// refusePrivateExcept is refusePrivate that lets the allowed loopback
// addresses through.
func refusePrivateExcept(allowed []string) func(network, address string, c syscall.RawConn) error {
	return func(network, address string, c syscall.RawConn) error {
		if slices.Contains(allowed, address) {
			return nil
		}
		return refusePrivate(network, address, c)
	}
}

// refusePrivate refuses to connect to an address that is not public,
// whatever name resolved to it.
func refusePrivate(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return errPrivateAddress
	}
	addr, err := netip.ParseAddr(host)
	if err != nil || !publicAddr(addr) {
		return errPrivateAddress
	}
	return nil
}

func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return errTooManyRedirects
	}
	if c.sourceURL(req.URL.String()) == nil || hasSecret(req.URL.String(), c.secrets) {
		return errRedirectNotPublic
	}
	return nil
}

// transportFailure classifies a failed request or body read of the call
// whose context is parent; the messages name no credential and no
// transport internals.
func transportFailure(parent context.Context, err error, what string) *Error {
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.Is(err, errPrivateAddress):
		return fail("PERMISSION_DENIED", "%s resolves to a private or local address; only public hosts are fetched.", what)
	case errors.Is(err, errTooManyRedirects):
		return fail("LIMIT_EXCEEDED", "%s redirected more than %d times.", what, MaxRedirects)
	case errors.Is(err, errRedirectNotPublic):
		return fail("PERMISSION_DENIED", "%s redirected to a URL that is not a valid public HTTP(S) URL.", what)
	case errors.Is(parent.Err(), context.Canceled):
		return fail("CANCELED", "The research request was canceled.")
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return retryable("DEADLINE_EXCEEDED", "The research request timed out.")
	case errors.As(err, &dns):
		return retryable("UNAVAILABLE", "%s could not be resolved; the network may be unavailable.", what)
	}
	return retryable("UNAVAILABLE", "%s could not be reached; the network may be unavailable.", what)
}

// statusFailure classifies a non-2xx answer as the original research port
// does.
func statusFailure(status int, what string) *Error {
	var e *Error
	switch {
	case status == 401 || status == 403:
		e = fail("PERMISSION_DENIED", "%s refused the request (HTTP %d).", what, status)
	case status == 404 || status == 410:
		e = fail("NOT_FOUND", "%s was not found (HTTP %d).", what, status)
	case status == 408 || status == 504:
		e = retryable("DEADLINE_EXCEEDED", "%s timed out (HTTP %d).", what, status)
	case status == 429:
		e = retryable("UNAVAILABLE", "%s is rate limited (HTTP %d); retry later.", what, status)
	case status >= 500:
		e = retryable("UNAVAILABLE", "%s is temporarily unavailable (HTTP %d).", what, status)
	case status >= 300 && status < 400:
		e = fail("PERMISSION_DENIED", "%s answered a redirect (HTTP %d), which is not followed.", what, status)
	default:
		e = fail("PROVIDER_ERROR", "%s rejected the request (HTTP %d).", what, status)
	}
	e.Status = status
	return e
}
