package research

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the loopback allowance", func() {
	ctx := context.Background()
	page := func() (url, addr string, hits *int) {
		n := 0
		srv := serve(func(w http.ResponseWriter, r *http.Request) {
			n++
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "allowed page\n")
		})
		return srv.URL, srv.Listener.Addr().String(), &n
	}

	It("reads exactly the allowed address and nothing else that is not public", func() {
		allowedURL, addr, hits := page()
		otherURL, _, otherHits := page()
		c, err := New(Config{AllowLoopback: []string{addr}})
		Expect(err).NotTo(HaveOccurred())
		p, err := c.Fetch(ctx, allowedURL+"/doc", 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Content).To(Equal("allowed page\n"))
		Expect(*hits).To(Equal(1))
		for _, u := range []string{otherURL + "/doc", strings.Replace(allowedURL, "127.0.0.1", "localhost", 1) + "/doc", "http://10.0.0.1/doc"} {
			_, err := c.Fetch(ctx, u, 0)
			Expect(code(err)).To(Equal("INVALID_INPUT"), u)
		}
		Expect(*otherHits).To(BeZero())
	})

	It("is never the default", func() {
		u, _, hits := page()
		c, err := New(Config{})
		Expect(err).NotTo(HaveOccurred())
		_, err = c.Fetch(ctx, u+"/doc", 0)
		Expect(code(err)).To(Equal("INVALID_INPUT"))
		Expect(*hits).To(BeZero())
	})

	DescribeTable("accepts only 127.0.0.1:PORT and [::1]:PORT",
		func(a string, ok bool) {
			_, err := New(Config{AllowLoopback: []string{a}})
			Expect(err == nil).To(Equal(ok), a)
		},
		Entry(nil, "127.0.0.1:8080", true),
		Entry(nil, "[::1]:8080", true),
		Entry(nil, "localhost:8080", false),
		Entry(nil, "10.0.0.1:8080", false),
		Entry(nil, "127.0.0.1", false),
		Entry(nil, "127.0.0.1:0", false),
		Entry(nil, "127.0.0.1:080", false),
		Entry(nil, "127.0.0.1:99999", false),
	)
})
