package doubles_test

import (
	"context"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/doubles"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the nine doubles", func() {
	var t *doubles.Tools
	BeforeEach(func() { t = doubles.New() })

	It("are the nine optional tools, each with a Func", func() {
		Expect(doubles.IDs()).To(Equal([]string{"artifact.create", "artifact.list", "artifact.read", "command.session",
			"perception.analyze", "preview.manage", "research.fetch", "research.search", "user.ask"}))
		Expect(t.Funcs()).To(HaveLen(9))
		r, err := t.Funcs()["user.ask"](context.Background(), map[string]any{"questions": []any{}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue())
	})

	It("refuse a canonical ID without a double", func() {
		r, err := t.Execute(context.Background(), "workspace.read", nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Error.Code).To(Equal("UNSUPPORTED_TOOL"))
	})

	It("check the context first", func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		r, _ := t.Execute(ctx, "user.ask", map[string]any{"questions": []any{}})
		Expect(r.Error.Code).To(Equal(port.CodeCanceled))
		ctx, cancel = context.WithDeadline(context.Background(), time.Unix(0, 0))
		defer cancel()
		r, _ = t.Execute(ctx, "user.ask", map[string]any{"questions": []any{}})
		Expect(r.Error.Code).To(Equal(port.CodeDeadlineExceeded))
	})

	It("answer the same calls with the same bytes in a fresh instance", func() {
		script := func() []port.ToolResult {
			d := doubles.New()
			var out []port.ToolResult
			for _, c := range []struct {
				id   string
				args map[string]any
			}{
				{"artifact.create", map[string]any{"name": "a", "content": "x", "mimeType": "text/plain"}},
				{"command.session", map[string]any{"action": "start", "command": "npm run dev"}},
				{"preview.manage", map[string]any{"action": "open", "command": "vite", "captureArtifact": true}},
				{"research.search", map[string]any{"query": "go generics"}},
				{"artifact.list", map[string]any{}},
			} {
				r, err := d.Execute(context.Background(), c.id, c.args)
				Expect(err).NotTo(HaveOccurred())
				out = append(out, r)
			}
			return out
		}
		Expect(script()).To(Equal(script()))
	})

	Describe("research.fetch", func() {
		It("returns a fixed document for a public URL, paged by maxBytes", func() {
			r, out := ok(t, "research.fetch", map[string]any{"url": "HTTPS://Example.COM", "maxBytes": 300.0})
			Expect(r.Trust).To(Equal("external"))
			Expect(out["url"]).To(Equal("https://example.com/"))
			Expect(out["title"]).To(Equal("Deterministic document for example.com"))
			Expect(out["content"]).To(HavePrefix("Contract document 01 for https://example.com/\nContract document 02"))
			Expect(len(out["content"].(string))).To(BeNumerically("<=", 300))
			Expect(out["truncated"]).To(BeTrue())
			Expect(out["provenance"]).To(HaveKeyWithValue("trust", "untrusted_external"))
			Expect(r.Content).To(HavePrefix(`{"url":`))
			Expect(r.Summary).To(Equal("Fetched deterministic contract content for example.com."))
			_, full := ok(t, "research.fetch", map[string]any{"url": "http://example.com:8080/a?b=1"})
			Expect(full["truncated"]).To(BeFalse())
			Expect(strings.Count(full["content"].(string), "\n")).To(Equal(31))
			Expect(full["url"]).To(Equal("http://example.com:8080/a?b=1"))
		})

		DescribeTable("refuses URLs that are not public HTTP(S)",
			func(url string) {
				Expect(fails(t, "research.fetch", map[string]any{"url": url}, "INVALID_INPUT")).
					To(Equal("URL must be a valid public HTTP(S) URL."))
			},
			Entry("ftp", "ftp://example.com/"),
			Entry("user info", "https://user:pw@example.com/"),
			Entry("loopback v4", "http://127.0.0.1/"),
			Entry("private v4", "http://192.168.1.1/"),
			Entry("carrier-grade NAT", "http://100.64.0.1/"),
			Entry("multicast", "http://224.0.0.1/"),
			Entry("loopback v6", "http://[::1]/"),
			Entry("unique local v6", "http://[fd00::1]/"),
			Entry("documentation v6", "http://[2001:db8::1]/"),
			Entry("mapped private v4", "http://[::ffff:10.0.0.1]/"),
			Entry("single label", "http://intranet/"),
			Entry("localhost", "http://localhost/"),
			Entry("special suffix", "http://printer.local/"),
			Entry("special word", "http://example/"),
			Entry("not a URL", "http://exa mple.com/"),
		)

		It("accepts public addresses", func() {
			ok(t, "research.fetch", map[string]any{"url": "http://8.8.8.8/"})
			ok(t, "research.fetch", map[string]any{"url": "http://[2606:4700::1111]/"})
		})

		It("needs a url", func() {
			Expect(fails(t, "research.fetch", map[string]any{}, "INVALID_INPUT")).To(Equal("Missing string argument 'url'."))
			Expect(fails(t, "research.fetch", map[string]any{"url": ""}, "INVALID_INPUT")).To(Equal("URL must not be empty."))
		})
	})

	Describe("research.search", func() {
		It("returns at most three hits derived from the query", func() {
			r, out := ok(t, "research.search", map[string]any{"query": "rust async"})
			Expect(r.Summary).To(Equal("Returned 3 deterministic search result(s)."))
			results := out["results"].([]any)
			Expect(results).To(HaveLen(3))
			first := results[0].(map[string]any)
			Expect(first["title"]).To(Equal("Deterministic result 1 for rust async"))
			Expect(first["url"]).To(MatchRegexp(`^https://example\.invalid/search/[0-9a-f]{16}/1$`))
			Expect(first["provider"]).To(Equal("galaxy-code-contract"))
			_, two := ok(t, "research.search", map[string]any{"query": "rust async", "maxResults": 2.0})
			Expect(two["results"]).To(HaveLen(2))
			Expect(two["results"].([]any)[0]).To(Equal(first))
		})

		It("needs a non-empty query", func() {
			Expect(fails(t, "research.search", map[string]any{"query": ""}, "INVALID_INPUT")).To(Equal("Search query must not be empty."))
			fails(t, "research.search", map[string]any{"query": 3.0}, "INVALID_INPUT")
		})
	})

	Describe("command.session", func() {
		It("starts, writes, reads, interrupts, kills and lists sessions without running anything", func() {
			r, out := ok(t, "command.session", map[string]any{"action": "start", "command": "npm run dev"})
			Expect(out).To(Equal(map[string]any{"action": "start", "sessionId": "session-0001", "status": "running",
				"stdout": "started:npm run dev\n", "stderr": "", "stdoutCursor": "offset:20", "stderrCursor": "offset:0"}))
			Expect(r.Effects.StateVersion).To(HavePrefix("sha256:"))
			v1 := r.Effects.StateVersion

			r, out = ok(t, "command.session", map[string]any{"action": "write", "sessionId": "session-0001", "input": "q"})
			Expect(out["stdout"]).To(Equal("started:npm run dev\ninput:q\n"))
			Expect(r.Effects.StateVersion).NotTo(Equal(v1))

			r, out = ok(t, "command.session", map[string]any{"action": "read", "sessionId": "session-0001", "stdoutAfter": "offset:20", "maxChars": 3.0})
			Expect(out["stdout"]).To(Equal("inp"))
			Expect(out["stdoutCursor"]).To(Equal("offset:23"))
			Expect(r.Effects.StateVersion).To(BeEmpty())

			_, out = ok(t, "command.session", map[string]any{"action": "interrupt", "sessionId": "session-0001"})
			Expect(out["status"]).To(Equal("interrupted"))
			Expect(out["stderr"]).To(Equal("interrupted\n"))
			Expect(fails(t, "command.session", map[string]any{"action": "write", "sessionId": "session-0001"}, "CONFLICT")).
				To(Equal("Session 'session-0001' is not running."))
			_, out = ok(t, "command.session", map[string]any{"action": "kill", "sessionId": "session-0001"})
			Expect(out["status"]).To(Equal("killed"))

			ok(t, "command.session", map[string]any{"action": "start", "command": "sleep 1"})
			r, out = ok(t, "command.session", map[string]any{"action": "list"})
			Expect(r.Trust).To(Equal("trusted"))
			Expect(out["sessions"]).To(Equal([]any{
				map[string]any{"sessionId": "session-0001", "command": "npm run dev", "status": "killed"},
				map[string]any{"sessionId": "session-0002", "command": "sleep 1", "status": "running"},
			}))
		})

		It("pages in UTF-16 code units", func() {
			ok(t, "command.session", map[string]any{"action": "start", "command": "é😀"})
			_, out := ok(t, "command.session", map[string]any{"action": "read", "sessionId": "session-0001", "stdoutAfter": "offset:8", "maxChars": 3.0})
			Expect(out["stdout"]).To(Equal("é😀"))
		})

		It("refuses bad sessions and cursors", func() {
			Expect(fails(t, "command.session", map[string]any{}, "INVALID_INPUT")).To(Equal("Missing string argument 'action'."))
			Expect(fails(t, "command.session", map[string]any{"action": "start"}, "INVALID_INPUT")).
				To(Equal("Starting a deterministic session requires a command."))
			Expect(fails(t, "command.session", map[string]any{"action": "read"}, "INVALID_INPUT")).
				To(Equal("Session action 'read' requires sessionId."))
			Expect(fails(t, "command.session", map[string]any{"action": "read", "sessionId": "session-0009"}, "NOT_FOUND")).
				To(Equal("Deterministic session 'session-0009' does not exist."))
			ok(t, "command.session", map[string]any{"action": "start", "command": "x"})
			Expect(fails(t, "command.session", map[string]any{"action": "read", "sessionId": "session-0001", "stdoutAfter": "offset:99"}, "INVALID_INPUT")).
				To(Equal("Cursor must use 'offset:<offset>' within the resource."))
			Expect(fails(t, "command.session", map[string]any{"action": "read", "sessionId": "session-0001", "stderrAfter": 1.0}, "INVALID_INPUT")).
				To(Equal("Cursor must use 'offset:<offset>'."))
		})
	})

	Describe("preview.manage", func() {
		It("opens a preview on a local URL, capturing an artifact, and closes it", func() {
			r, out := ok(t, "preview.manage", map[string]any{"action": "open", "command": "vite", "expectPort": 5173.0, "captureArtifact": true})
			Expect(out).To(Equal(map[string]any{"action": "open", "sessionId": "preview-0001", "status": "open",
				"url": "http://127.0.0.1:5173", "artifactId": "artifact-0001"}))
			open := r.Effects.StateVersion
			_, art := ok(t, "artifact.read", map[string]any{"id": "artifact-0001"})
			Expect(art["content"]).To(Equal("preview:preview-0001\nurl:http://127.0.0.1:5173\n"))
			r, out = ok(t, "preview.manage", map[string]any{"action": "close", "sessionId": "preview-0001"})
			Expect(out["status"]).To(Equal("closed"))
			Expect(r.Effects.StateVersion).NotTo(Equal(open))
			_, out = ok(t, "preview.manage", map[string]any{"action": "open", "command": "vite"})
			Expect(out["url"]).To(Equal("http://127.0.0.1:4173"))
			Expect(out).NotTo(HaveKey("artifactId"))
		})

		It("refuses missing commands and unknown previews", func() {
			Expect(fails(t, "preview.manage", map[string]any{"action": "open"}, "INVALID_INPUT")).
				To(Equal("Opening a deterministic preview requires a command."))
			Expect(fails(t, "preview.manage", map[string]any{"action": "close"}, "INVALID_INPUT")).
				To(Equal("Closing a deterministic preview requires sessionId."))
			Expect(fails(t, "preview.manage", map[string]any{"action": "close", "sessionId": "preview-0001"}, "NOT_FOUND")).
				To(Equal("Deterministic preview 'preview-0001' does not exist."))
		})
	})

	Describe("artifacts", func() {
		It("creates, lists by kind with a cursor, and reads by byte pages", func() {
			r, out := ok(t, "artifact.create", map[string]any{"name": "notes", "content": "héllo", "mimeType": "text/plain"})
			Expect(out["id"]).To(Equal("artifact-0001"))
			Expect(out["bytes"]).To(Equal(6.0))
			Expect(out["contentHash"]).To(MatchRegexp(`^sha256:[0-9a-f]{64}$`))
			Expect(r.Effects.StateVersion).To(HavePrefix("sha256:"))
			Expect(r.Content).To(HavePrefix(`{"id":"artifact-0001","mimeType":"text/plain","contentHash":`))
			ok(t, "artifact.create", map[string]any{"name": "img", "mimeType": "image/png"})
			ok(t, "artifact.create", map[string]any{"name": "raw", "mimeType": "blob"})

			_, out = ok(t, "artifact.list", map[string]any{"limit": 2.0})
			Expect(out["artifacts"]).To(HaveLen(2))
			Expect(out["nextCursor"]).To(Equal("offset:2"))
			_, out = ok(t, "artifact.list", map[string]any{"cursor": "offset:2"})
			Expect(out["artifacts"].([]any)[0]).To(HaveKeyWithValue("kind", "data"))
			Expect(out).NotTo(HaveKey("nextCursor"))
			_, out = ok(t, "artifact.list", map[string]any{"kind": "image"})
			Expect(out["artifacts"]).To(ConsistOf(HaveKeyWithValue("id", "artifact-0002")))

			r, out = ok(t, "artifact.read", map[string]any{"id": "artifact-0001", "maxBytes": 2.0})
			Expect(out["content"]).To(Equal("h"))
			Expect(out["nextCursor"]).To(Equal("byte:1"))
			Expect(r.Summary).To(Equal("Read 1 character(s) from deterministic artifact artifact-0001."))
			_, out = ok(t, "artifact.read", map[string]any{"id": "artifact-0001", "cursor": "byte:1"})
			Expect(out["content"]).To(Equal("éllo"))
			Expect(out["truncated"]).To(BeFalse())
		})

		It("refuses unknown artifacts, bad cursors and missing arguments", func() {
			Expect(fails(t, "artifact.create", map[string]any{"mimeType": "text/plain"}, "INVALID_INPUT")).To(Equal("Missing string argument 'name'."))
			Expect(fails(t, "artifact.create", map[string]any{"name": "a"}, "INVALID_INPUT")).To(Equal("Missing string argument 'mimeType'."))
			Expect(fails(t, "artifact.read", map[string]any{"id": "artifact-0001"}, "NOT_FOUND")).
				To(Equal("Artifact 'artifact-0001' does not exist in the contract lab."))
			ok(t, "artifact.create", map[string]any{"name": "a", "content": "é", "mimeType": "text/plain"})
			Expect(fails(t, "artifact.read", map[string]any{"id": "artifact-0001", "cursor": "byte:1"}, "INVALID_INPUT")).
				To(Equal("Cursor does not point to a UTF-8 boundary."))
			Expect(fails(t, "artifact.read", map[string]any{"id": "artifact-0001", "cursor": "byte:3"}, "INVALID_INPUT")).
				To(Equal("Cursor must use 'byte:<offset>' within the resource."))
			fails(t, "artifact.list", map[string]any{"cursor": "offset:5"}, "INVALID_INPUT")
		})
	})

	Describe("perception.analyze", func() {
		BeforeEach(func() {
			ok(t, "artifact.create", map[string]any{"name": "shot.png", "content": "Hello OCR", "mimeType": "image/png"})
		})

		It("reports fixed observations per mode", func() {
			_, out := ok(t, "perception.analyze", map[string]any{"artifactId": "artifact-0001", "mode": "metadata"})
			Expect(out["observations"]).To(HaveExactElements("mimeType=image/png", "bytes=9", HavePrefix("hash=sha256:")))
			Expect(out["confidence"]).To(Equal(1.0))
			_, out = ok(t, "perception.analyze", map[string]any{"artifactId": "artifact-0001", "mode": "ocr"})
			Expect(out["observations"]).To(Equal([]any{"Hello OCR"}))
			r, out := ok(t, "perception.analyze", map[string]any{"artifactId": "artifact-0001", "mode": "vision"})
			Expect(out["observations"]).To(Equal([]any{"Deterministic visual observation for shot.png."}))
			Expect(r.Summary).To(Equal("Analyzed artifact-0001 in deterministic vision mode."))
		})

		It("refuses unknown artifacts and missing arguments", func() {
			fails(t, "perception.analyze", map[string]any{"artifactId": "artifact-0002", "mode": "ocr"}, "NOT_FOUND")
			Expect(fails(t, "perception.analyze", map[string]any{"artifactId": "artifact-0001"}, "INVALID_INPUT")).
				To(Equal("Missing string argument 'mode'."))
		})
	})

	Describe("user.ask", func() {
		It("answers every question with a fixed text", func() {
			r, out := ok(t, "user.ask", map[string]any{"questions": []any{
				map[string]any{"id": "q1", "question": "Which port?"},
				map[string]any{"id": 2.0, "question": "Why?"},
			}})
			Expect(out).To(Equal(map[string]any{"cancelled": false, "answers": []any{
				map[string]any{"id": "q1", "answer": "Deterministic contract answer for 'q1': Which port?"},
				map[string]any{"id": "2", "answer": "Deterministic contract answer for '2': Why?"},
			}}))
			Expect(r.Summary).To(Equal("Answered 2 deterministic contract question(s)."))
		})

		It("needs an array of questions", func() {
			Expect(fails(t, "user.ask", map[string]any{"questions": "?"}, "INVALID_INPUT")).To(Equal("questions must be an array."))
		})
	})
})
