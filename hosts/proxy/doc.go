// Package proxy is conform's fault-injection proxy: it sits between the
// harness's wire client and a host process, at the level of JSON-RPC
// messages (one framed line each), and by rule makes the connection
// misbehave in ways a real host will not on demand: a method that fails or
// closes the transport, a slow request, an acknowledgement lost after the
// host did the work, a malformed result after a real write, an error
// thrown after commit, forged effects, a mismatched canonical tool ID, a
// cancellation in the middle of a call.
//
// # Example
//
//	rules, err := proxy.DecodeRules([]byte(`[
//		{"method": "tool/execute", "modelName": "write_file", "nth": 1, "action": "drop_ack"}
//	]`))
//	p, err := proxy.New(rules)
//	client, err := hostproc.Start(argv, hostproc.StartOptions{Interpose: p.Attach})
//	// … the first write_file call reaches the host, which writes the file;
//	// its answer is dropped and the connection closed, so the call fails
//	// with a transport error.
//	for _, f := range p.Faults() { … } // what was injected, in order
//
// # Rules
//
// A [Rule] is data (it lives in the "faults" list under the "conform" key
// of scenario.json, decoded strictly). It matches requests the harness
// sends by method; for tool/execute also by model name and canonical ID
// (resolved through the last tools/list or tools/restore answer the proxy
// forwarded); and by occurrence: nth = N fires on the Nth matching request
// only, nth absent fires on every one. Requests the host sends
// (approval/request) and their answers pass unchanged.
//
// Actions before the request reaches the host:
//
//   - fail: answer with a JSON-RPC error (rule.error, by default -32603
//     "injected fault"); the host never sees the request;
//   - close: close the transport in both directions; the host never sees
//     the request, the client sees a transport error;
//   - delay: hold the request for delayMs, then forward it.
//
// Actions after the request was forwarded:
//
//   - cancel: send $/cancelRequest for the request to the host after
//     cancelAfterMs; the host's answer is forwarded as usual;
//   - drop_ack: the host's answer is dropped and the transport closed in
//     both directions: the host did the work, the client sees a transport
//     error;
//   - corrupt_result: the host's answer is replaced by a malformed one:
//     "envelope" (the default) replaces the result with an object no
//     result schema accepts, "json" replaces the whole line with text that
//     is not JSON;
//   - throw_after_commit: the host's result is replaced by a JSON-RPC error
//     (rule.error, by default the unknown-outcome error -32010 of the
//     protocol), as if the host had thrown after dispatch;
//   - forge_effects: rule.effects are merged into the result's effects
//     (lists appended, other fields replaced) with effectsAuthority "host",
//     evidence the host never attested;
//   - mismatch_id: the result's canonicalToolId becomes
//     claimCanonicalToolId.
//
// An answer that is already a JSON-RPC error is left alone by the actions
// that rewrite results (corrupt_result envelope, forge_effects,
// mismatch_id); the fault is still recorded, with detail saying so.
//
// # Fault log
//
// Every injected fault is recorded, in the order it was applied, as a
// [Fault] ([Proxy.Faults]); the log holds no time or process values, so a
// transcript can include it.
//
// # Attaching
//
// [Proxy.Attach] takes the host's output and input and returns the pair
// the harness's connection should use instead; it is the shape of
// hostproc.StartOptions.Interpose. [Proxy.Wrap] does the same for two
// in-process streams.
package proxy
