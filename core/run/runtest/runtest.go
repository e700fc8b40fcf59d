// Package runtest holds test support for code that drives the core run
// loop and checks what it recorded.
package runtest

import "github.com/galaxy-stack/conform/core/run"

// ResultCodes is each call's outcome: "ok", its error code, or "unknown"
// when it has no result.
func ResultCodes(calls []run.CallRecord) []string {
	var out []string
	for _, c := range calls {
		switch {
		case c.Result == nil:
			out = append(out, "unknown")
		case c.Result.OK:
			out = append(out, "ok")
		default:
			out = append(out, c.Result.Error.Code)
		}
	}
	return out
}
