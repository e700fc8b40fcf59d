package research

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// code is the port code of a research failure.
func code(err error) string {
	var re *Error
	if errors.As(err, &re) {
		return re.Code
	}
	return ""
}

func serve(h http.HandlerFunc) *httptest.Server {
	srv := httptest.NewServer(h)
	DeferCleanup(srv.Close)
	return srv
}

func loopbackClient(cfg Config) *Client {
	cfg.AllowPrivateHosts = true
	c, err := New(cfg)
	Expect(err).NotTo(HaveOccurred())
	return c
}

var _ = Describe("Fetch", func() {
	ctx := context.Background()

	It("reads plain text and HTML", func() {
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/page" {
				w.Header().Set("Content-Type", "text/html; charset=UTF-8")
				fmt.Fprint(w, "<html><head><title>Doc</title></head><body><p>Hello <i>world</i></p><script>x()</script></body></html>")
				return
			}
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "\uFEFFplain text\n")
		})
		c := loopbackClient(Config{})
		p, err := c.Fetch(ctx, srv.URL+"/a.txt#frag", 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(Equal(Page{URL: srv.URL + "/a.txt", Content: "plain text\n", MimeType: "text/plain; charset=utf-8"}))
		p, err = c.Fetch(ctx, srv.URL+"/page", 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Title).To(Equal("Doc"))
		Expect(p.Content).To(Equal("Hello world"))
		Expect(p.MimeType).To(Equal("text/html; charset=utf-8"))
	})

	It("bounds the content to maxBytes and the body to MaxResponseBytes", func() {
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			n := 1000
			if r.URL.Path == "/huge" {
				n = MaxResponseBytes
			}
			fmt.Fprint(w, strings.Repeat("é", n))
		})
		c := loopbackClient(Config{})
		p, err := c.Fetch(ctx, srv.URL+"/small", 257)
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Content).To(Equal(strings.Repeat("é", 128)))
		Expect(p.Truncated).To(BeTrue())
		p, err = c.Fetch(ctx, srv.URL+"/small", 200000)
		Expect(err).NotTo(HaveOccurred())
		Expect(len(p.Content)).To(Equal(2000), "under MaxFetchBytes nothing is cut")
		Expect(p.Truncated).To(BeFalse())
		p, err = c.Fetch(ctx, srv.URL+"/huge", 0)
		Expect(err).NotTo(HaveOccurred(), "a body cut inside a character at the transport bound is still UTF-8")
		Expect(len(p.Content)).To(Equal(DefaultFetchBytes))
		Expect(p.Truncated).To(BeTrue())
	})

	It("stops at the time limit", func() {
		release := make(chan struct{})
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(200)
			fmt.Fprint(w, "start")
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		})
		DeferCleanup(func() { close(release) })
		c := loopbackClient(Config{Timeout: 300 * time.Millisecond})
		start := time.Now()
		_, err := c.Fetch(ctx, srv.URL, 0)
		Expect(code(err)).To(Equal("DEADLINE_EXCEEDED"))
		Expect(err.(*Error).Retryable).To(BeTrue())
		Expect(time.Since(start)).To(BeNumerically("<", 5*time.Second))
		cctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(50*time.Millisecond, cancel)
		_, err = loopbackClient(Config{}).Fetch(cctx, srv.URL, 0)
		Expect(code(err)).To(Equal("CANCELED"))
	})

	It("refuses content that is not UTF-8 text", func() {
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/latin1":
				w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
				w.Write([]byte("caf\xe9"))
			case "/invalid":
				w.Header().Set("Content-Type", "text/plain")
				w.Write([]byte("caf\xe9 au lait"))
			case "/png":
				w.Header().Set("Content-Type", "image/png")
				w.Write([]byte("\x89PNG\r\n"))
			case "/empty":
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprint(w, "<script>only()</script>")
			}
		})
		c := loopbackClient(Config{})
		for path, want := range map[string]string{"/latin1": "UNSUPPORTED", "/invalid": "UNSUPPORTED", "/png": "UNSUPPORTED", "/empty": "NOT_FOUND"} {
			_, err := c.Fetch(ctx, srv.URL+path, 0)
			Expect(code(err)).To(Equal(want), path)
		}
	})

	It("follows a bounded number of redirects, each to an acceptable URL", func() {
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			var n int
			if _, err := fmt.Sscanf(r.URL.Path, "/hop/%d", &n); err == nil && n > 0 {
				http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
				return
			}
			if r.URL.Path == "/to-file" {
				http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
				return
			}
			if r.URL.Path == "/to-user" {
				http.Redirect(w, r, "http://user:pw@"+r.Host+"/hop/0", http.StatusFound)
				return
			}
			fmt.Fprint(w, "arrived")
		})
		c := loopbackClient(Config{})
		p, err := c.Fetch(ctx, srv.URL+fmt.Sprintf("/hop/%d", MaxRedirects), 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(p.URL).To(Equal(srv.URL + "/hop/0"))
		Expect(p.Content).To(Equal("arrived"))
		_, err = c.Fetch(ctx, srv.URL+fmt.Sprintf("/hop/%d", MaxRedirects+1), 0)
		Expect(code(err)).To(Equal("LIMIT_EXCEEDED"))
		_, err = c.Fetch(ctx, srv.URL+"/to-file", 0)
		Expect(code(err)).To(Equal("PERMISSION_DENIED"))
		_, err = c.Fetch(ctx, srv.URL+"/to-user", 0)
		Expect(code(err)).To(Equal("PERMISSION_DENIED"))
	})

	It("reports a non-2xx answer as a structured failure with its status", func() {
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			var st int
			fmt.Sscanf(r.URL.Path, "/%d", &st)
			w.WriteHeader(st)
		})
		c := loopbackClient(Config{})
		for st, want := range map[int]string{404: "NOT_FOUND", 410: "NOT_FOUND", 403: "PERMISSION_DENIED", 429: "UNAVAILABLE",
			503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED", 418: "PROVIDER_ERROR", 304: "PERMISSION_DENIED"} {
			_, err := c.Fetch(ctx, fmt.Sprintf("%s/%d", srv.URL, st), 0)
			Expect(code(err)).To(Equal(want), "status %d", st)
			Expect(err.(*Error).Status).To(Equal(st))
		}
	})

	It("refuses private hosts by default without sending a request", func() {
		var hits atomic.Int32
		srv := serve(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); fmt.Fprint(w, "x") })
		c, err := New(Config{})
		Expect(err).NotTo(HaveOccurred())
		for _, u := range []string{srv.URL, "http://localhost:1/", "http://[::1]/", "http://169.254.169.254/latest/meta-data"} {
			_, err := c.Fetch(ctx, u, 0)
			Expect(code(err)).To(Equal("INVALID_INPUT"), u)
			Expect(err).To(MatchError(ContainSubstring("URL must be a valid public HTTP(S) URL.")))
		}
		Expect(hits.Load()).To(BeZero())
	})

	It("reports an unreachable source as UNAVAILABLE", func() {
		srv := serve(func(w http.ResponseWriter, r *http.Request) {})
		url := srv.URL
		srv.Close()
		_, err := loopbackClient(Config{}).Fetch(ctx, url, 0)
		Expect(code(err)).To(Equal("UNAVAILABLE"))
		Expect(err.(*Error).Retryable).To(BeTrue())
	})
})

const secret = "s3cr3t-Token/with+chars"

var _ = Describe("Search", func() {
	ctx := context.Background()

	It("is not available without an endpoint", func() {
		c, err := New(Config{})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.CanSearch()).To(BeFalse())
		_, err = c.Search(ctx, "go", 3)
		Expect(code(err)).To(Equal("UNAVAILABLE"))
		off, err := New(Config{Disabled: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(off).To(BeNil())
		Expect(off.CanSearch()).To(BeFalse())
	})

	It("refuses a configuration that would put credentials elsewhere than in headers", func() {
		_, err := New(Config{SearchURL: "https://u:p@search.dev/"})
		Expect(err).To(HaveOccurred())
		_, err = New(Config{SearchURL: "https://search.dev/?key=" + secret, Headers: map[string]string{"X-Key": secret}})
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).NotTo(ContainSubstring(secret))
		_, err = New(Config{SearchURL: "ftp://search.dev/"})
		Expect(err).To(HaveOccurred())
		_, err = ConfigFromEnv(func(k string) string {
			if k == EnvHeaders {
				return "Authorization: " + secret
			}
			return ""
		})
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).NotTo(ContainSubstring(secret))
	})

	It("sends the query and count as parameters and the credentials as headers only; never returns them", func() {
		var seen *http.Request
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			seen = r
			auth := r.Header.Get("Authorization")
			json.NewEncoder(w).Encode(map[string]any{"results": []any{
				map[string]any{"title": "Echo " + auth, "url": "https://docs.go.dev/a?k=v", "snippet": "token " + auth + " " + strings.ReplaceAll(secret, "/", "%2F")},
				map[string]any{"title": " ", "url": "https://pkg.go.dev/b#x"},
				map[string]any{"title": "private", "url": "http://10.0.0.1/"},
				map[string]any{"title": "leaky", "url": "https://evil.dev/?t=" + secret},
				map[string]any{"title": "extra", "url": "https://c.dev/"},
				map[string]any{"title": "more", "url": "https://d.dev/"},
			}})
		})
		c, err := New(Config{SearchURL: srv.URL + "/search?lang=en", Headers: map[string]string{"Authorization": "Bearer " + secret}})
		Expect(err).NotTo(HaveOccurred())
		hits, err := c.Search(ctx, "  retry back-off  ", 3)
		Expect(err).NotTo(HaveOccurred())
		Expect(seen.URL.Query().Get("q")).To(Equal("retry back-off"))
		Expect(seen.URL.Query().Get("n")).To(Equal("3"))
		Expect(seen.URL.Query().Get("lang")).To(Equal("en"))
		Expect(seen.URL.RawQuery).NotTo(ContainSubstring("s3cr3t"))
		Expect(seen.Header.Get("Authorization")).To(Equal("Bearer " + secret))
		Expect(hits.Truncated).To(BeTrue())
		Expect(hits.Hits).To(HaveLen(3))
		Expect(hits.Hits[0].URL).To(Equal("https://docs.go.dev/a?k=v"))
		Expect(hits.Hits[1]).To(Equal(Hit{Title: "pkg.go.dev", URL: "https://pkg.go.dev/b"}))
		Expect(hits.Hits[2].URL).To(Equal("https://c.dev/"))
		out, err := json.Marshal(hits)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).NotTo(ContainSubstring("s3cr3t"))
		Expect(string(out)).To(ContainSubstring("[REDACTED]"))
	})

	It("refuses a query holding a credential, redirects and malformed answers", func() {
		var redirects atomic.Int32
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/redirect":
				redirects.Add(1)
				http.Redirect(w, r, "https://elsewhere.dev/", http.StatusFound)
			case "/fail":
				w.WriteHeader(500)
				fmt.Fprint(w, "error for "+r.Header.Get("X-Key"))
			case "/bad":
				fmt.Fprint(w, `{"results":[{"title":1}]}`)
			case "/nojson":
				fmt.Fprint(w, "<html>")
			}
		})
		headers := map[string]string{"X-Key": secret}
		for path, want := range map[string]string{"/redirect": "PERMISSION_DENIED", "/fail": "UNAVAILABLE", "/bad": "PROVIDER_ERROR", "/nojson": "PROVIDER_ERROR"} {
			c, err := New(Config{SearchURL: srv.URL + path, Headers: headers})
			Expect(err).NotTo(HaveOccurred())
			_, err = c.Search(ctx, "q", 0)
			Expect(code(err)).To(Equal(want), path)
			Expect(err.Error()).NotTo(ContainSubstring("s3cr3t"))
		}
		Expect(redirects.Load()).To(Equal(int32(1)), "the redirect is not followed")
		c, _ := New(Config{SearchURL: srv.URL + "/bad", Headers: headers})
		_, err := c.Search(ctx, "find "+secret, 0)
		Expect(code(err)).To(Equal("INVALID_INPUT"))
		Expect(err.Error()).NotTo(ContainSubstring("s3cr3t"))
		_, err = c.Search(ctx, "a\x00b", 0)
		Expect(code(err)).To(Equal("INVALID_INPUT"))
	})

	It("never sends the credentials to a fetched source, and refuses a fetch URL holding one", func() {
		var auth atomic.Value
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			auth.Store(r.Header.Get("Authorization") + r.Header.Get("X-Key"))
			fmt.Fprint(w, "page mentions "+secret)
		})
		c, err := New(Config{SearchURL: srv.URL, Headers: map[string]string{"X-Key": secret}, AllowPrivateHosts: true})
		Expect(err).NotTo(HaveOccurred())
		p, err := c.Fetch(ctx, srv.URL+"/page", 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(auth.Load()).To(Equal(""))
		Expect(p.Content).To(Equal("page mentions [REDACTED]"))
		_, err = c.Fetch(ctx, srv.URL+"/?k="+secret, 0)
		Expect(code(err)).To(Equal("INVALID_INPUT"))
		Expect(err.Error()).NotTo(ContainSubstring("s3cr3t"))
	})
})
