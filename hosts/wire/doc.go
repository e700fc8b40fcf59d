// Package wire is the host protocol (version 1): JSON-RPC 2.0 messages, one
// JSON object per line, on a host process's stdin and stdout, in both
// directions.
//
// The harness side is a [Client]: it starts a host process ([Start]) or
// connects to one in this process ([Connect]), validates every message the
// host sends against the JSON Schemas in schema/, and reports a violation
// as a [*ProtocolError] naming the method, the JSON pointer of the
// offending field and a quote of what the host sent. Its typed methods
// cover every method of the protocol; the host's approval/request is
// answered by [StartOptions].Approver.
//
// # Supervision
//
// A started host cannot wedge the harness: every wait is bounded, writes to
// the host happen on the connection's own goroutine (a host that stops
// reading its input breaks the protocol after [DefaultWriteStall]), the
// host's requests are bounded in number ([MaxHostInFlight],
// [MaxHostRequests]) and one message in size ([StartOptions].MaxMessage).
// When a session ends the host's process tree is killed (see [Client] for
// what that covers on each OS); main functions call [Supervise] first so
// that orphans are reaped, and [KillAll] on SIGINT/SIGTERM. A host inherits
// only an allowlisted environment ([DefaultEnv], [StartOptions].PassEnv)
// with a home of its own. What the harness had to do about a host beyond
// the protocol is reported by [Client.Incidents]; text quoted from a host
// has its secrets redacted.
//
// The host side is the server kit of package kit (hosts/wire/kit): a Go
// host is a kit.Mux of handlers served by kit.Serve. A handler calls the
// harness back through [ConnFrom] or kit.RequestApproval, and reports
// failures with the protocol's errors ([PortFailure],
// [UnknownOutcomeError], [ErrNotInitialized]).
//
// PROTOCOL.md beside this file is the protocol's reference for host authors
// in any language; CONTRACTS.md states the cross-cutting contracts, and
// tools/ has one page per tool with catalog.json, both generated from the
// catalog by internal/gendoc (go run ./hosts/wire/internal/gendoc).
package wire
