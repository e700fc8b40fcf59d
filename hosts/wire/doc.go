// Package wire is the host protocol: JSON-RPC 2.0 messages, one JSON object
// per line, on a host process's stdin and stdout, in both directions.
//
// The harness side is a [Client]: it starts a host process, validates every
// message the host sends against the JSON Schemas in schema/, and reports a
// violation as a [*ProtocolError] naming the method, the JSON pointer of the
// offending field and a quote of what the host sent. The host side is a
// [Server]: a Go host is a set of [Handler]s.
//
// PROTOCOL.md beside this file is the protocol's reference for host authors
// in any language.
package wire
