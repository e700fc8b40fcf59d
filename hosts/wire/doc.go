// Package wire is the host protocol (version 1): JSON-RPC 2.0 messages, one
// JSON object per line, on a host process's stdin and stdout, in both
// directions.
//
// The harness side is a hostproc.Client (package hosts/wire/hostproc): it
// starts and supervises a host process and validates every message the
// host sends against the JSON Schemas in schema/ ([Validate]), reporting
// a violation as a [*ProtocolError].
//
// The host side is the server kit of package kit (hosts/wire/kit): a Go
// host is a kit.Mux of handlers served by kit.Serve. A handler calls the
// harness back through jsonrpc.ConnFrom or kit.RequestApproval, and
// reports failures with the protocol's errors ([PortFailure],
// [UnknownOutcomeError], [ErrNotInitialized]).
//
// Both sides speak over package jsonrpc (hosts/wire/jsonrpc): a closed
// set of messages (jsonrpc.Request, jsonrpc.Response) carried by a
// jsonrpc.Framer chosen at construction, newline-delimited JSON for stdio
// hosts.
//
// PROTOCOL.md beside this file is the protocol's reference for host authors
// in any language; CONTRACTS.md states the cross-cutting contracts, and
// tools/ has one page per tool with catalog.json, both generated from the
// catalog by internal/gendoc (go run ./hosts/wire/internal/gendoc).
package wire
