package redact_test

import (
	"strings"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/internal/redact"
)

func TestString(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain text", "the host exited (exit status 1)", "the host exited (exit status 1)"},
		{"classic github token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 rejected", "token [REDACTED:github-token] rejected"},
		{"github app token", "ghs_ABCDEFGHIJKLMNOPQRSTUVWX", "[REDACTED:github-token]"},
		{"fine-grained github token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "[REDACTED:github-token]"},
		{"api key", "OPENAI key sk-proj-abcdefghijklmnop1234 used", "OPENAI key [REDACTED:api-key] used"},
		{"short sk- is no key", "task-sk-1", "task-sk-1"},
		{"aws access key id", "id AKIAIOSFODNN7EXAMPLE.", "id [REDACTED:aws-access-key]."},
		{"slack token", "xoxb-123456789012-abcdefABCDEF", "[REDACTED:slack-token]"},
		{"bearer", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def", "Authorization: Bearer [REDACTED:bearer-token]"},
		{"bearer lower case", "authorization: bearer abcdefgh12345678", "authorization: bearer [REDACTED:bearer-token]"},
		{"private key block", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAK\n-----END RSA PRIVATE KEY-----\nafter", "key:\n[REDACTED:private-key]\nafter"},
		{"cut private key block", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNz", "[REDACTED:private-key]"},
		{"env assignment", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG HOME=/root", "AWS_SECRET_ACCESS_KEY=[REDACTED:secret] HOME=/root"},
		{"empty assignment keeps the next word", "AWS_SECRET_ACCESS_KEY= HOME=/root", "AWS_SECRET_ACCESS_KEY= HOME=/root"},
		{"yaml field", "api_key:  abcd1234", "api_key:  [REDACTED:secret]"},
		{"json field", `{"password": "hunter22"}`, `{"password": "[REDACTED:secret]"}`},
		{"github token variable", "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "GITHUB_TOKEN=[REDACTED:github-token]"},
		{"url password", "cloning https://alice:s3cr3t@example.com/repo.git", "cloning https://alice:[REDACTED:password]@example.com/repo.git"},
		{"url without password", "see https://example.com/a:b", "see https://example.com/a:b"},
		{"two secrets", "ghp_abcdefghijklmnopqrstuvwxyz AKIAIOSFODNN7EXAMPLE", "[REDACTED:github-token] [REDACTED:aws-access-key]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := redact.String(c.in); got != c.want {
				t.Errorf("String(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}

// TestStringLinear checks that adversarial inputs, long runs of the
// characters the rules look for, take time proportional to their size.
func TestStringLinear(t *testing.T) {
	inputs := []string{
		strings.Repeat("a", 1<<20),
		strings.Repeat("secret=", 1<<17),
		strings.Repeat("https://a:", 1<<17),
		"-----BEGIN RSA PRIVATE KEY-----" + strings.Repeat("-----BEGIN X PRIVATE KEY-----", 1<<15),
		strings.Repeat("Bearer ", 1<<17),
		strings.Repeat("ghp_", 1<<18),
	}
	for _, in := range inputs {
		start := time.Now()
		_ = redact.String(in)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("String of %d bytes starting %q took %s", len(in), in[:12], d)
		}
	}
}

func FuzzString(f *testing.F) {
	f.Add("token ghp_abcdefghijklmnopqrstuvwxyz0123456789")
	f.Add("https://u:p@h")
	f.Fuzz(func(t *testing.T, s string) {
		out := redact.String(s)
		if redact.String(out) != out {
			t.Errorf("String is not idempotent on %q: %q", s, out)
		}
	})
}
