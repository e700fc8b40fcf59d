package run

import (
	"testing"

	"github.com/galaxy-stack/conform/core/canon"
)

// TestIdempotencyKeyIsTheRuntimeHash checks the hand-written key against the
// generic canonical hash, including strings that need escaping.
func TestIdempotencyKeyIsTheRuntimeHash(t *testing.T) {
	for _, s := range []string{"", "run-1", `quote " and \ backslash`, "tab\tnew\nline\r\b\f", "\x00\x01\x1f\x7f", "ünïcödé ✓ 𝄞", "<&>", "bad \xff utf8"} {
		want, err := canon.Hash(map[string]string{"runId": s, "toolCallId": s + "1", "name": "n" + s, "argumentsHash": "sha256:" + s})
		if err != nil {
			t.Fatal(err)
		}
		if got := idempotencyKey(s, s+"1", "n"+s, "sha256:"+s); got != want {
			t.Errorf("idempotencyKey(%q) = %s, want %s", s, got, want)
		}
	}
}
