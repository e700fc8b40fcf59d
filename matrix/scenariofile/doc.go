// Package scenariofile loads and runs conform's txtar scenarios (DESIGN
// "Scenarios") and writes them from original JSON fixtures (Import).
//
// A scenario is a txtar archive:
//
//	# the comment is a script of harness commands (see below)
//	conform-run
//	status completed
//	tools read_file write_file
//	-- scenario.json --
//	{"schemaVersion": 2, "name": "...", ...}   (the original fixture format)
//	-- workspace/src/app.js --
//	console.log("seeded into the workspace");
//
// # Files
//
// scenario.json is an original fixture, read by the same strict loader as a
// .json fixture (conform's additions under "conform"). Every file under
// workspace/ seeds the workspace at the path after "workspace/", after the
// fixture's own initialFiles (a path given in both is an error). txtar
// files end in a newline and are text: content without a final newline, or
// with a line that looks like a txtar marker, stays in scenario.json's
// initialFiles (Import puts it there). Binary content is written in base64:
// a file workspace/NAME.base64 seeds NAME with the decoded bytes (a real
// file whose name ends in .base64 is written NAME.base64.base64). Symbolic
// links, empty directories and FIFOs are scenario.json's conform.entries;
// file modes are the loader's (0600, as for initialFiles): the fixture
// format has no way to say another.
//
// Any other archive file is an error, as are names that are absolute,
// contain "..", a backslash, "$" or a .git component, a duplicate name,
// an archive over fixture.MaxFileSize and an archive that is not UTF-8.
// Errors are *fixture.Error values naming the archive and the line (for
// archive errors) or the JSON path inside scenario.json.
//
// # Script
//
// The comment is a testscript script (github.com/rogpeppe/go-internal/
// testscript) whose commands are only the harness's own; a script that
// names any other command, exec and the other testscript built-ins
// included, a [condition] or a background "&" is refused when the
// scenario loads. Nothing in an archive is ever run as a program. The
// commands (a leading "!" negates an assertion):
//
//	resume [on=STATUS] [tamper] [fresh-host] [max=N]
//	                       set the resume policy of the next conform-run
//	conform-run            run the scenario against the host under test;
//	                       fails when the oracle fails ("! conform-run"
//	                       expects the oracle to fail)
//	status STATUS          the final status
//	error-code CODE|null   the final error code
//	tools NAME...          the exact tool sequence (model-facing names)
//	effects PATH...        the paths of the run's write evidence, in order
//	file PATH [absent | equals TEXT | line TEXT | contains TEXT]
//	                       the final workspace: PATH is a regular file;
//	                       absent; holds exactly TEXT; holds the one line
//	                       TEXT and its newline; holds TEXT somewhere
//	                       (TEXT is one script word: quote it with '...',
//	                       it cannot hold a newline; PATH follows the
//	                       fixture's path rules, so nothing under .git)
//	changes PATH...        the changed workspace paths, sorted
//	replay-hash [HASH]     the replay hash (without HASH: log it)
//
// A script without conform-run runs the scenario once before its first
// line; an empty script is just a run checked by the oracle.
//
// The loader splits each line into words exactly as testscript does:
// spaces, tabs and carriage returns separate words, "#" outside quotes
// ends the line (inside a word too), '...' quotes. testscript would expand
// $NAME outside quotes from its own environment, so a "$" outside quotes
// is refused ('$' is a plain dollar). Every command checks its arguments
// again when it runs, and a command that panics fails the script, not
// conform.
package scenariofile
