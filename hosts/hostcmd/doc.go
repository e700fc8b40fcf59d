// Package hostcmd turns the command line of a host under test into one
// every part of conform can start the same way, checks that it can be
// started, and identifies the program it runs.
//
// A host runs with its fresh workspace as working directory, so a
// relative path in its command line would resolve there. [Resolve] makes
// such a path absolute against the directory conform was started in: the
// executable when it is written with a slash (`./my-host`), and the script
// of an interpreter command line (`node hosts/node/host.mjs`,
// `python3 host.py`) when that script exists.
//
// [Check] says, before anything runs, why a command cannot be started: not
// found, a directory, not executable, not a program the system can start,
// or a #! line naming a missing interpreter. Callers report it as an
// invocation error (exit status 2).
//
// [Identify] hashes what the command runs: the executable and, for an
// interpreter command line, the script that is the host.
package hostcmd
