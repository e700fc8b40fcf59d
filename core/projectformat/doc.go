// Package projectformat is the contract of the project-format extension
// tool (project.format, model name format_project): the capability gate a
// call passes before dispatch, the adapter a file list selects, and the
// durable job record with its three-state mutation report.
//
// A call is one job, created before execution. Its report says per call
// and per file whether the workspace changed: true, false or unknown. Only
// a complete, verified outcome is true or false; a partial failure, an
// interruption, a timeout, a file changed under the writer or a lost
// receipt is unknown, and unknown never authorises running the job again.
package projectformat
