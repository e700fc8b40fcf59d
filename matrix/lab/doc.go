// Package lab runs fixtures of the original lab's JSON format against a host
// and checks them with the original oracle (LAB §3, §4, §7): one fixture in
// fresh directories (Run, RunFixture), or the stages of a campaign on one
// shared workspace (RunCampaign).
//
//	fx, _ := fixture.Load("fixtures/write-and-validate.json")
//	argv, _ := builtin.Command("reference")
//	rep, err := lab.Run(ctx, fx[0], lab.Options{Argv: argv}, false)
//	// err: the run could not happen; rep.Failures: what the oracle found
//
// # One fixture
//
// RunFixture follows LAB §3 step by step:
//
//   - arrange: initialFiles are written into the workspace by the harness
//     (a file that already holds the content is left alone, so campaign
//     stages arrange idempotently);
//   - Git baseline: `git init`, `git add -A` and a commit with a fixed
//     identity, unless the workspace already has a .git directory; when
//     that fails git.exec is left out of the catalog sent to the host;
//   - the harness's own snapshot of the workspace (package snapshot);
//   - one host process, started and initialized by package session with
//     the fixture's mode, approval profile, containment and tool profile;
//     the harness answers its approval requests from approvalDecisions,
//     or, with conform.approver, answers none ("absent") or never answers
//     ("silent", with conform.approvalTimeoutMs sent in initialize);
//   - one scripted model (the fixture's rounds, model overrides and token
//     steps), one fake clock whose virtual sleeps are the retry delays,
//     execution IDs fixture-execution-1, 2, … and the fixture's run ID;
//   - the core run controller over the host's tool executor, store, trace
//     and fingerprint verifier; a host that offers no store or trace gets
//     the memory doubles of package doubles/store, and the report lists
//     them under Report.Doubles;
//   - controls: every runtime event is counted, and a control that fires
//     cancels or pauses the active run;
//   - executions: the run request of LAB §3.8, then the resumes of
//     runtime.resume — arranging mutateBeforeResume and
//     conform.entriesBeforeResume, starting a fresh host process on the
//     same store directory for recreateHost, and tampering with the
//     checkpoint (tamperCheckpoint, conform.resumeTamper); the model
//     double's capability probe answers as conform.reprobeBeforeResume
//     says from the resume on. A fresh-host
//     resume of a host with its own store reads the checkpoint back
//     through the new process (the core's store/get), never from the
//     previous process's answer;
//   - the final snapshot, the files the fixture asks about read by the
//     harness itself, the checkpoints read back from the store and checked
//     with the core's integrity assertion, and oracle.Check.
//
// A fixture with the full_contract tool profile needs a host that offers the
// nine optional tools; on any other host the report says it is not
// applicable and fails.
//
// # Errors and reports
//
// Every ordinary outcome is a Report, including a host that breaks the
// protocol (a failure on the assertion "host") and a fixture path the
// workspace refuses while the harness arranges it (a failure on the
// assertion "arrange" naming the path, status "arrange_failed"): the next
// fixture still runs. RunFixture returns an error only when the run cannot
// happen: the host command cannot be started or the core refuses the
// fixture's run request (both an *InvocationError, exit status 2 on the
// command line), or ctx ends.
//
// # The workspace is the fixture's only reach
//
// Every change the harness makes on a fixture's behalf — initialFiles,
// conform.entries, mutateBeforeResume, conform.entriesBeforeResume,
// conform.outsideFiles in the outside directory — and every read of an
// expected file goes through package internal/wsfs: no symbolic link is
// followed in a parent component, a link at the path is replaced or
// reported, never followed, and .git is refused. Arrangement stops when
// ctx ends. The snapshots honour ctx too and list a file over
// Options.MaxSnapshotFileBytes with its size and the reason it was not
// hashed; expected-file reads are capped by Options.MaxReadBytes.
//
// # Fixtures are evidence
//
// Nothing here looks at a fixture's name, file or content to decide how to
// run it: every decision comes from the fixture's declared settings and
// from what the host reports. The premise of a fixture that the machine does
// not meet (a fixture expecting required containment to be unavailable on a
// machine where a backend verifies) is met by an option of the run
// (Options.ForbidContainment), never by recognising the fixture.
//
// # Audits
//
// Besides the oracle's record, the report carries what the original lab
// reported (LAB §3.10, §5): the structural audit of every persisted
// checkpoint (Report.CheckpointAudits: reason, compaction count, model
// turns, tool calls, edit paths, validation IDs, diff reviewed, active tool
// names, content hash), a summary of every model request and the
// model-context audit (Report.ModelRequests, Report.ModelContext), the
// successful trace flushes and the command containment the host reported.
// Report.Checkpoints holds the persisted checkpoints themselves, decoded,
// for matrix items that check what a checkpoint holds; it is not reported.
//
// # Not done here
//
// The normalized transcript and its replay hash are package replay's
// (replay.Build over a Report); the report keeps the runtime events
// (Report.Transcript) they are built from, and ReplayHash for a caller
// that fills it in.
package lab
