// Package kit is the server kit for hosts written in Go: a host is a [Mux]
// of handlers, each usually a typed function adapted by [Typed], served on
// its standard input and output by [Serve]:
//
//	mux := kit.NewMux()
//	mux.Register(wire.MethodInitialize, kit.Typed(h.initialize))
//	mux.Register(wire.MethodExecute, kit.Typed(h.execute))
//	kit.Serve(ctx, os.Stdin, os.Stdout, mux)
//
// [Typed] checks a request's params against the published schema of its
// method before decoding them strictly ([DecodeParams]). A handler calls
// the harness back with [RequestApproval], and reports failures with the
// protocol's errors of package wire (wire.PortFailure,
// wire.UnknownOutcomeError, wire.ErrNotInitialized).
package kit
