// Package redact removes credentials from text that conform copies out of
// an untrusted process (a host's standard error, a quote of what it sent)
// into reports.
//
//	redact.String("push failed: token ghp_0123…") // "push failed: token [REDACTED:github-token]"
//
// Each secret is replaced by [REDACTED:<kind>], keeping what identifies it
// (the variable name of an assignment, the user of a URL, the word
// "Bearer"). The rules are Go regular expressions (RE2), so String runs in
// time linear in its input whatever the input is; it recognises the shapes
// listed in [Kinds], not every secret there is.
package redact

import (
	"regexp"
	"strings"
)

// A rule replaces every match of re. With keep, submatch 1 is kept in
// front of the placeholder and submatch 2 (when the expression has one)
// behind it.
type rule struct {
	kind string
	re   *regexp.Regexp
	keep bool
	// hint is a substring (lower case) every match contains; a text
	// without it skips the rule.
	hint string
}

var rules = []rule{
	// PEM private key blocks, and a block cut off before its end line.
	{kind: "private-key", hint: "private key", re: regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----|[\s\S]*)`)},
	// GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained.
	{kind: "github-token", hint: "gh", re: regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{20,}`)},
	{kind: "github-token", hint: "github_pat_", re: regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{20,}`)},
	// OpenAI/Anthropic-style API keys (sk-…, sk-proj-…, sk-ant-…).
	{kind: "api-key", hint: "sk-", re: regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{16,}`)},
	// AWS access key IDs.
	{kind: "aws-access-key", hint: "", re: regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[A-Z0-9]{16}\b`)},
	// Slack tokens.
	{kind: "slack-token", hint: "xox", re: regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`)},
	// HTTP bearer credentials.
	{kind: "bearer-token", hint: "bearer", keep: true, re: regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`)},
	// Password in URL userinfo: scheme://user:password@host.
	{kind: "password", hint: "://", keep: true, re: regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:)[^\s/@\[]+(@)`)},
	// Assignments of secret-looking names: AWS_SECRET_ACCESS_KEY=…,
	// "password": "…", api_key: ….
	{kind: "secret", keep: true, re: regexp.MustCompile(`(?i)(\b[A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|pwd|api_?key|access_?key|private_?key|credentials?)[A-Za-z0-9_.-]*["']?(?:=|\s*:\s*)["']?)[^\s"',;&\[]{4,}`)},
}

// String returns s with every recognised secret replaced by
// [REDACTED:<kind>]. Text without secrets is returned unchanged.
func String(s string) string {
	var lower string
	for _, r := range rules {
		if r.hint != "" {
			if lower == "" {
				lower = strings.ToLower(s)
			}
			if !strings.Contains(lower, r.hint) {
				continue
			}
		}
		placeholder := "[REDACTED:" + r.kind + "]"
		switch {
		case !r.keep:
			s = r.re.ReplaceAllLiteralString(s, placeholder)
		case r.re.NumSubexp() == 2:
			s = r.re.ReplaceAllString(s, "${1}"+placeholder+"${2}")
		default:
			s = r.re.ReplaceAllString(s, "${1}"+placeholder)
		}
		lower = ""
	}
	return s
}
