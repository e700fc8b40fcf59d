// Package run is the run controller of the core runtime: it drives model
// rounds, dispatches tool calls through the host's tool executor, and ends a
// run with a status and, on failure, a runtime error code (RUNTIME §2–§11).
//
// A run is a deterministic function of its request and its ports: time,
// IDs, the model and the tools all come from the Deps it is given.
package run
