// Package jsonrpc is the connection layer of the host protocol: JSON-RPC
// 2.0 over a [Framer], in both directions, with the bounds the harness
// needs against a hostile peer.
//
// A [Message] is a *[Request] (a call, or a notification when its ID is
// nil) or a *[Response]; the set is closed. A [Conn] is one side of a
// connection: it reads messages through the framer it was given at
// construction ([NewLineFramer] is the protocol's newline-delimited JSON;
// tests and the fault proxy may supply others), answers the peer's
// requests with a [Handler], and sends its own with [Conn.Call] and
// [Conn.Notify]. $/cancelRequest cancels a handler's context; a caller
// that gives up sends it.
//
//	c := jsonrpc.NewConn(jsonrpc.NewLineFramer(r, w), jsonrpc.ConnOptions{Strict: true})
//	go c.Run(ctx)
//	raw, err := c.Call(ctx, wire.MethodInitialize, params)
//
// Errors on the wire are *wire.Error values; a peer that breaks the
// protocol (malformed JSON, a schema violation on a strict connection, a
// line over the framer's limit, a stalled input) ends the connection with
// a *wire.ProtocolError. [ConnOptions] OnRecv and OnSend observe every
// line as sent, for transcripts; the package logs nothing.
//
// [Envelope] is the wire form of any message, for code that reads
// recorded traffic line by line.
package jsonrpc
