// Package doubles holds the contract doubles of the nine optional tools of the
// original full_contract profile (LAB_AND_HOSTS §20.1, §21) and the
// built-in host "doubles" that serves them beside the reference host's real
// tools.
//
// It is a host, filed under hosts: its handler wraps the reference host's
// and it uses none of the deterministic doubles of the top-level doubles
// folder (model, store, clock), which import only core.
//
// These are doubles, not adapters: they run no process, open no preview
// server, reach no network, read no media and ask no user. They keep their
// state (artifacts, command sessions, previews and their sequence numbers)
// in memory, in one [Tools] value, and answer every call deterministically,
// so a run against them is a function of its inputs. Every report about a
// host that uses them labels them as doubles: the host lists them in the
// `doubles` field of its initialize answer, and their summaries say
// "deterministic".
//
// # Example
//
//	tools := doubles.New()
//	res, err := tools.Execute(ctx, "artifact.create", map[string]any{
//		"name": "notes.txt", "content": "hello", "mimeType": "text/plain",
//	})
//	// res.OK, res.Content == `{"id":"artifact-0001",…}`,
//	// res.Effects.StateVersion is the artifact store's version.
//
// # Tools
//
// Each double is a [Func] keyed by its canonical ID ([Tools.Funcs]), the
// signature a host's tool executor plugs in:
//
//   - research.fetch and research.search return fixed documents and hits
//     derived from the URL or query; fetch refuses URLs that are not public
//     HTTP(S) (INVALID_INPUT);
//   - command.session starts, reads, writes to, interrupts, kills and lists
//     simulated sessions (NOT_FOUND for an unknown session, CONFLICT for a
//     write to one that is not running);
//   - preview.manage opens and closes simulated previews, optionally
//     capturing an artifact (NOT_FOUND for an unknown preview);
//   - artifact.create, artifact.list and artifact.read keep text artifacts
//     with paging cursors (NOT_FOUND, INVALID_INPUT for a bad cursor);
//   - perception.analyze reports fixed observations of an artifact;
//   - user.ask answers every question with a fixed text.
//
// A double returns the CONTRACTS §7.5 envelope. A failure is an ok:false
// result with a typed error; a missing required argument is INVALID_INPUT;
// a cancelled or expired context is CANCELED or DEADLINE_EXCEEDED; an
// unknown canonical ID is UNSUPPORTED_TOOL. Successes carry host-attested
// effects within the tool's effect profile entry: approval "not_required"
// (the executor that applies the approval policy replaces it) and, for the
// stateful tools, a stateVersion over the double's state.
//
// # The doubles host
//
// [NewHandler] composes the doubles with another host (the reference host)
// as a jsonrpc.Handler: it forwards initialize and every tool it does not own
// to that host, serves the nine doubles and catalog.search itself, and
// answers tools/list from its own registry of both. See [Handler].
//
// # Deviations from the original doubles
//
// Hashes are conform's: content hashes are "sha256:" plus lowercase hex,
// and state versions are SHA-256 over canonical JSON (JCS). A cursor inside
// a multi-byte character is INVALID_INPUT (DECISIONS 61). URL normalization
// follows the WHATWG rules the original relies on only for the common
// cases: lower-case scheme and host, default ports dropped, an empty path
// becomes "/".
package doubles
