package redact_test

import (
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/internal/redact"
)

// benchInputs are 1 MiB inputs: ordinary log text with a few secrets, and
// long runs of the characters the rules look for.
func benchInputs() map[string]string {
	const mib = 1 << 20
	fill := func(unit string) string { return strings.Repeat(unit, mib/len(unit)+1)[:mib] }
	return map[string]string{
		"log":          fill("2024-01-01 the host read README.md (42 bytes) and wrote src/a.go; token ghp_abcdefghijklmnopqrstuvwxyz0123 AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"),
		"plain":        fill("a"),
		"assignments":  fill("secret="),
		"urls":         fill("https://a:"),
		"private-keys": "-----BEGIN RSA PRIVATE KEY-----" + fill("-----BEGIN X PRIVATE KEY-----"),
		"bearer":       fill("Bearer "),
		"github":       fill("ghp_"),
		"aws-ids":      fill("AKIAIOSFODNN7EXAMPLE "),
		"base64":       fill("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEYwJalrXUtnFEMI/K7MDENG "),
		"jwt":          fill("eyJhbGciOiJIUzI1NiJ9."),
	}
}

// BenchmarkString redacts 1 MiB inputs; each must take time linear in its
// size (compare the ns/op of the inputs: none is far above the others).
func BenchmarkString(b *testing.B) {
	r := redact.New(redact.Secret{Name: "HOST_SECRET", Value: "a-host-secret-value"}, redact.Secret{Name: "GITHUB_TOKEN", Value: "gho_abcdefghijklmnop"})
	for name, in := range benchInputs() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for i := 0; i < b.N; i++ {
				_ = r.String(in)
			}
		})
	}
}
