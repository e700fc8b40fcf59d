package catalog

// DefaultToolTimeoutMs is the timeout of a process tool call that carries
// none, also the command port's default (CONTRACTS §6.5).
const DefaultToolTimeoutMs = 120000

// DispatchGuardMarginMs is the headroom the host backstop adds to a tool's
// own timeout (CONTRACTS §6.5).
const DispatchGuardMarginMs = 60000

// DispatchGuardMs returns the host backstop for a call that requested
// requestedMs: the request when positive, else [DefaultToolTimeoutMs], plus
// [DispatchGuardMarginMs]. It is never a fixed cap, so the tool answers
// first; the run deadline is the only hard bound (CONTRACTS §6.5).
func DispatchGuardMs(requestedMs int) int {
	if requestedMs <= 0 {
		requestedMs = DefaultToolTimeoutMs
	}
	return requestedMs + DispatchGuardMarginMs
}
