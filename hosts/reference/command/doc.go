// Package command is the reference host's command port: it runs the
// command strings of run_command (command.run) and of project validation
// scripts in the workspace, the way the original runtime's command port
// does (LAB_AND_HOSTS §11-§13, CONTRACTS §13.5). It knows nothing of the
// host protocol; the host's tool executor calls it.
//
//	prober := command.NewProber(command.ProberConfig{HelperArgs: []string{"host", "containment-probe"}})
//	probe := prober.Probe()
//	r, err := command.New(command.Options{Root: root, Containment: command.Required, Probe: &probe, SpillDir: spill})
//	...
//	res, err := r.Run(ctx, command.Request{Command: "go test ./...", Cwd: "src", TimeoutMs: 60000, Deadline: runDeadline})
//
// # Interpreter
//
// A Runner publishes one immutable [Environment] (prompt.hostEnvironment)
// and spawns every command from that same value: /bin/sh -c on macOS and
// Linux, cmd.exe /d /s /v:off /c on Windows, started directly, never
// through another shell. The command string is one argument. stdin is the
// null device, there is no terminal, and the child gets a minimal
// environment (CI=1, FORCE_COLOR=0, PATH, LANG and a few more when set,
// never HOME) plus the request's overrides.
//
// # Results and errors
//
// Once a command is spawned, Run always returns a [Result]: a non-zero
// exit is status "exited" with its code, the timeout or an absolute
// deadline is "timed_out", and a canceled context is "canceled"; the last
// two terminate the whole process group (SIGTERM, SIGKILL 750 ms later;
// taskkill /T /F on Windows). Failures before spawn (invalid input, cwd
// escapes, an elapsed deadline, required containment without a verified
// backend) are [*Error] values carrying the port's code and message.
//
// Run returns only after the interpreter has exited, both output pipes
// have closed and no member of its process group is left: background
// processes that outlive a normal exit are terminated too. A workspace
// snapshot taken after Run therefore sees the command's final effects; the
// host brackets Run with its before and after captures to derive changed
// paths. A process that leaves the group (setsid) escapes this unless the
// command runs contained.
//
// # Output
//
// Each stream keeps only its last MaxOutputBytes bytes in memory, decoded
// as UTF-8 with replacement characters and trimmed to whole code points.
// With a spill directory the complete streams are written to files there,
// outside the workspace.
//
// # Containment
//
// The containment policy is best_effort or required. A [Prober] probes
// bubblewrap once per process by running the host's own binary as helper
// ([ProbeHelperMain]) inside the sandbox and checking nine assertions from
// outside; only a probe passing all nine verifies. [StatusFor] turns the
// probe into the published [Status], which is separate from cwd
// validation. Best effort without a verified backend is reported as
// uncontained, never as sandboxed; required mode without one refuses every
// command before spawning. With an active backend each command runs under
// bwrap with the arguments of [BubblewrapArgs] after the hard-link
// preflight [CheckHardLinks].
package command
