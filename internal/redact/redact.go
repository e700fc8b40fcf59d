// Package redact removes credentials from text that conform copies out of
// an untrusted process (a host's standard error, its initialize answer, its
// tool results, a quote of what it sent) into its output: the terminal,
// result documents and the reports rendered from them, transcripts.
//
//	redact.String("push failed: token ghp_0123…") // "push failed: token [REDACTED:github-token]"
//
// A [Redactor] removes secrets two ways:
//
//   - by value: every occurrence of a value conform knows to be secret is
//     replaced by [REDACTED:$NAME], NAME being the environment variable that
//     holds it. The values are those of conform's own environment variables
//     whose names look secret ([SecretName]) and of every variable passed to
//     hosts with --host-env, whatever its name; values shorter than
//     [MinValueLen] bytes are left alone, so that a variable set to "1" or
//     "true" does not wreck the text.
//   - by shape: every match of the rules listed in [Kinds] is replaced by
//     [REDACTED:<kind>], keeping what identifies it (the variable name of an
//     assignment, the user of a URL, the word "Bearer").
//
// The rules are Go regular expressions (RE2) and the values are found with
// a [strings.Replacer], so redaction takes time linear in its input,
// whatever the input is. The shapes are those of a secret-scanning rule set
// (after gitleaks' default configuration) whose match is unambiguous; a
// secret of another shape is redacted only by value.
//
// [String] is the one redaction function: it uses the process's redactor,
// which the commands set with [Use] before anything runs, and every output
// of conform goes through it ([JSON], [Walk] and [Writer] apply it to JSON
// text, to Go values and to a stream). [Values] redacts the values alone,
// for text that is data (a scenario conform import writes), where a
// token-shaped string can be what a test is about.
package redact

import (
	"io"
	"os"
	"sync/atomic"
)

// std is the process's redactor; nil until Default or Use sets it.
var std atomic.Pointer[Redactor]

// Default returns the process's redactor: the one [Use] installed, or else
// one built from the process's environment with no --host-env names.
func Default() *Redactor {
	if r := std.Load(); r != nil {
		return r
	}
	std.CompareAndSwap(nil, FromEnv(os.Environ(), nil))
	return std.Load()
}

// Use makes r the process's redactor, the one [String] uses.
func Use(r *Redactor) { std.Store(r) }

// String returns s with every secret the process's redactor knows, by value
// or by shape, replaced by a placeholder. Text without secrets is returned
// unchanged.
func String(s string) string { return Default().String(s) }

// Values returns s with the secret values of the process's redactor
// replaced, and no shape; see [Redactor.Values].
func Values(s string) string { return Default().Values(s) }

// JSON returns the JSON text b with every string literal in it (keys
// included) redacted by [String]; see [Redactor.JSON].
func JSON(b []byte) []byte { return Default().JSON(b) }

// Walk redacts, in place, every string reachable from the pointer v; see
// [Redactor.Walk].
func Walk(v any) { Default().Walk(v) }

// Writer returns a writer that redacts what it writes to w; see
// [Redactor.Writer].
func Writer(w io.Writer) io.Writer { return Default().Writer(w) }
