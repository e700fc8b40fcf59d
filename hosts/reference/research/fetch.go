package research

import (
	"bytes"
	"context"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"
)

// A Page is the readable content of one fetched source.
type Page struct {
	// URL is the final URL (after redirects), WHATWG-normalized, without
	// its fragment.
	URL string
	// Title is the HTML title, white space collapsed and cut to
	// MaxTitleBytes; "" for other content.
	Title string
	// Content is the readable text, cut to the call's byte limit.
	Content string
	// MimeType is the media type the source declared (or that was
	// sniffed), with "; charset=utf-8".
	MimeType string
	// Truncated says Content is not the whole readable text: the body was
	// longer than MaxResponseBytes or the text longer than the limit.
	Truncated bool
}

// Fetch reads one public source (see the package documentation). maxBytes
// is the content byte limit; 0 means DefaultFetchBytes, and it is capped at
// MaxFetchBytes. Every failure is an *Error.
func (c *Client) Fetch(ctx context.Context, rawURL string, maxBytes int) (Page, error) {
	if err := ctx.Err(); err != nil {
		return Page{}, transportFailure(ctx, err, "The source")
	}
	if maxBytes <= 0 {
		maxBytes = DefaultFetchBytes
	}
	maxBytes = min(maxBytes, MaxFetchBytes)
	u := c.sourceURL(rawURL)
	if u == nil || hasSecret(rawURL, c.secrets) {
		return Page{}, invalidURL()
	}
	what := "The source " + u.Hostname()
	if c.cfg.Faults.IgnoreDeadline {
		ctx = context.WithoutCancel(ctx)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Page{}, invalidURL()
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "text/html, text/plain;q=0.9, application/json;q=0.8, */*;q=0.1")
	if c.cfg.Faults.CredentialToSources {
		for _, name := range slices.Sorted(maps.Keys(c.cfg.Headers)) {
			req.Header.Set(name, c.cfg.Headers[name])
		}
	}
	resp, err := c.fetchHTTP.Do(req)
	if err != nil {
		return Page{}, transportFailure(ctx, err, what)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return Page{}, statusFailure(resp.StatusCode, what)
	}
	declared := resp.Header.Get("Content-Type")
	if strings.TrimSpace(declared) != "" {
		// Refuse what is not text before reading it.
		if _, _, ferr := textMediaType(declared, nil); ferr != nil {
			return Page{}, ferr
		}
	}
	body, cut, err := c.readBody(resp.Body)
	if err != nil {
		return Page{}, transportFailure(ctx, err, what)
	}
	mediaType, isHTML, ferr := textMediaType(declared, body)
	if ferr != nil {
		return Page{}, ferr
	}
	if cut {
		body = trimIncomplete(body)
	}
	body = bytes.TrimPrefix(body, []byte("\uFEFF"))
	if !utf8.Valid(body) && !c.cfg.Faults.AcceptInvalidUTF8 {
		return Page{}, fail("UNSUPPORTED", "%s is not valid UTF-8 text; research fetch reads UTF-8 only.", what)
	}
	p := Page{URL: normalizeURL(resp.Request.URL.String()), MimeType: mediaType + "; charset=utf-8", Truncated: cut}
	text := string(body)
	if isHTML {
		p.Title, text = readableHTML(body)
		p.Title, _ = boundBytes(c.redact(p.Title), MaxTitleBytes)
	}
	text = c.redact(text)
	if strings.TrimSpace(text) == "" {
		return Page{}, fail("NOT_FOUND", "%s returned no readable content.", what)
	}
	var short bool
	p.Content, short = boundBytes(text, maxBytes)
	p.Truncated = p.Truncated || short
	return p, nil
}

// readBody reads a fetched body: readBounded, or to its end under the
// UnboundedBody fault.
func (c *Client) readBody(r io.Reader) ([]byte, bool, error) {
	if c.cfg.Faults.UnboundedBody {
		b, err := io.ReadAll(r)
		return b, false, err
	}
	return readBounded(r)
}

// readBounded reads at most MaxResponseBytes of r and says whether more
// was there.
func readBounded(r io.Reader) ([]byte, bool, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxResponseBytes+1))
	if err != nil {
		return nil, false, err
	}
	if len(b) > MaxResponseBytes {
		return b[:MaxResponseBytes], true, nil
	}
	return b, false, nil
}

// textMediaType returns the media type of a body from its Content-Type
// (sniffed when absent) and whether it is HTML. It refuses content that is
// not text, and a declared charset other than UTF-8 or US-ASCII.
func textMediaType(contentType string, body []byte) (string, bool, *Error) {
	if strings.TrimSpace(contentType) == "" {
		contentType = http.DetectContentType(body)
	}
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return "", false, fail("UNSUPPORTED", "The source declares an unreadable content type.")
	}
	if cs, ok := params["charset"]; ok {
		switch strings.ToLower(strings.TrimSpace(cs)) {
		case "utf-8", "utf8", "us-ascii", "ascii":
		default:
			return "", false, fail("UNSUPPORTED", "The source declares charset %q; research fetch reads UTF-8 only.", cs)
		}
	}
	if !readable(mediaType) {
		return "", false, fail("UNSUPPORTED", "The source is %s; research fetch reads text only.", mediaType)
	}
	return mediaType, mediaType == "text/html" || mediaType == "application/xhtml+xml", nil
}

// readable reports whether a media type is text.
func readable(mediaType string) bool {
	switch {
	case strings.HasPrefix(mediaType, "text/"),
		strings.HasSuffix(mediaType, "+json"), strings.HasSuffix(mediaType, "+xml"):
		return true
	}
	switch mediaType {
	case "application/json", "application/xml", "application/javascript", "application/x-javascript",
		"application/ecmascript", "application/x-yaml", "application/yaml", "application/toml":
		return true
	}
	return false
}
