// Package hostproc starts host processes, supervises them, and is the
// harness's client of each: a [Client] speaks the protocol of package wire
// to one host, started by [Start] or, for a host in this process, made by
// [Connect]. It validates every message the host sends against the
// protocol's JSON Schemas and reports a violation as a *wire.ProtocolError
// naming the method, the JSON pointer of the offending field and a quote
// of what the host sent. Its typed methods cover every method of the
// protocol; the host's approval/request is answered by
// [StartOptions].Approver.
//
//	c, err := hostproc.Start(argv, hostproc.StartOptions{Approver: approve})
//	if err != nil { … }
//	defer c.Close(5 * time.Second)
//	res, err := c.Initialize(ctx, params)
//
// # Supervision
//
// A started host cannot wedge the harness: every wait is bounded, writes to
// the host happen on the connection's own goroutine (a host that stops
// reading its input breaks the protocol after the connection's write
// stall), the host's requests are bounded in number ([MaxHostInFlight],
// [MaxHostRequests]) and one message in size ([StartOptions].MaxMessage).
// When a session ends the host's process tree is killed (see [Client] for
// what that covers on each OS); main functions call [Supervise] first so
// that orphans are reaped, and [KillAll] on SIGINT/SIGTERM. A host inherits
// only an allowlisted environment ([DefaultEnv], [StartOptions].PassEnv)
// with a home of its own, and [TokenEnv] marks every process of its tree;
// the harness's cache directory ([CacheEnv]) goes to the hosts it trusts
// only ([Trusted]). A call the host never answers fails with a
// [NoAnswerError], which says what the harness knew when it gave up:
// whether the request reached the host's input, what the harness read from
// the host since and when, whether it was still reading, the host
// process's state (on Linux) and the end of its standard error. A call the
// caller gave up on is kept ([Client.GaveUp]).
// What the harness had to do about a host beyond the protocol is reported
// by [Client.Incidents]; the last of the host's standard error is kept
// ([Client.Stderr]); text quoted from a host has its secrets redacted.
package hostproc
