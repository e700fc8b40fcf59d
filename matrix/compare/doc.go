// Package compare runs scenarios on several hosts and compares their
// normalized transcripts (package replay): `conform compare` as a library.
//
// For each scenario it gives one replay hash per host, whether they are
// equal, which aspects differ (tool sequence, effects, evidence, final
// workspace, run), and for every host whose transcript differs from the
// baseline (the first host of the majority) the first divergent event: its
// two values, a go-cmp diff, and the contract sentence that governs the
// field that differs, or [HostsChoice] when no sentence does (a choice the
// contract leaves to the host that the transcript fails to normalize: a
// conform bug). With three or more hosts the outlier, the host outside a
// strict majority, is named.
//
// Hosts of different tool profiles (the doubles host offers the optional
// tools) are compared on the tools every host offers: the names the
// others do not offer are removed from every model request and from the
// active tool names of every checkpoint audit before the hashes are taken,
// and [Result.Profile] says so.
//
//	res, err := compare.Run(ctx, compare.Config{Hosts: hosts, Paths: paths})
//	for _, s := range res.Scenarios { … s.Equal … s.Mismatches … }
//
// With Config.ReproDir every scenario the hosts differ on gets a
// self-contained txtar repro (matrix/runs.Repro) naming the compare
// command that shows the mismatch again.
//
// [Documents] compares result documents instead: their items carry replay
// hashes only, so it says which scenarios differ, not where.
package compare
