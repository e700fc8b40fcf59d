// Package builtin names the hosts that ship inside the conform binary and
// turns a --host value into the command line that starts the host.
//
// Built-in hosts run out of process, over the same protocol as any other
// host: "reference" starts `conform host serve reference`, and a mutant of
// the reference host (package mutants) starts `conform host serve
// reference --mutant NAME`. Under `go test`
// there is no conform binary, so the test binary re-executes itself; a
// test's TestMain calls [MaybeServe] first, which serves the host when the
// process was started that way.
package builtin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/hosts/doubles"
	"github.com/galaxy-stack/conform/hosts/hostcmd"
	"github.com/galaxy-stack/conform/hosts/mutants"
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/variants"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
	"github.com/google/shlex"
)

// Names lists the built-in hosts.
func Names() []string {
	names := make([]string, 0, len(hosts))
	for n := range hosts {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// hosts maps a built-in host name to its handler factory. The names are
// the static table [Check] reads; a factory runs only in [Handler].
var hosts = map[string]func() jsonrpc.Handler{
	"reference": func() jsonrpc.Handler { return newReference(reference.Options{}) },
	// doubles is the reference host with the nine optional tools served by
	// deterministic in-memory doubles (the full_contract profile).
	"doubles": func() jsonrpc.Handler { return doubles.NewHandler(newReference(reference.Options{})) },
	// The controls (controls.go) fail as a host, breaking no guarantee
	// in particular.
	ControlCrash:   func() jsonrpc.Handler { return control(ControlCrash) },
	ControlHang:    func() jsonrpc.Handler { return control(ControlHang) },
	ControlGarbage: func() jsonrpc.Handler { return control(ControlGarbage) },
}

// newReference builds a reference host, whose constructor starts the
// containment probe; tests replace it to count the hosts built.
var newReference = reference.NewWith

// IsBuiltin reports whether host names a built-in host.
func IsBuiltin(host string) bool {
	_, ok := hosts[host]
	return ok
}

// Command returns the command line that starts host. A built-in name
// becomes this executable with `host serve NAME`; anything else is split
// into words as a POSIX shell would, without running a shell, and its
// relative paths are made absolute against the current directory
// (hostcmd.Resolve), because the host runs in its workspace.
func Command(host string) ([]string, error) {
	if IsBuiltin(host) {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("cannot find the conform executable to serve %q: %w", host, err)
		}
		return append(append([]string{exe}, hostproc.ServeArgs...), host), nil
	}
	words, err := Words(host)
	if err != nil {
		return nil, err
	}
	return hostcmd.Resolve(words)
}

// Words splits a host command line into words as a POSIX shell would,
// without running a shell and without resolving any path: the command as
// the user wrote it.
func Words(host string) ([]string, error) {
	words, err := shlex.Split(host)
	if err != nil {
		return nil, fmt.Errorf("cannot split host command %q: %w", host, err)
	}
	if len(words) == 0 {
		return nil, errors.New("empty host command")
	}
	return words, nil
}

// Serve serves the built-in host name on standard input and output until
// the harness shuts it down.
func Serve(name string) error { return ServeMutant(name, "") }

// MutantHost is the built-in host whose mutants --mutant selects.
const MutantHost = "reference"

// Check reports whether name is a built-in host and mutant, when not "",
// one of its mutants, against the static tables (the host names here, the
// mutants of package mutants): it builds no host. An unknown host, a
// mutant of any host but MutantHost, or an unknown mutant is an error
// naming the known ones.
func Check(name, mutant string) error {
	if !IsBuiltin(name) {
		return fmt.Errorf("unknown built-in host %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	if mutant == "" {
		return nil
	}
	if name != MutantHost {
		return fmt.Errorf("--mutant needs the %q host, not %q", MutantHost, name)
	}
	if _, ok := mutants.Lookup(mutant); !ok {
		return fmt.Errorf("unknown mutant %q (known: %s)", mutant, strings.Join(mutants.Names(), ", "))
	}
	return nil
}

// Handler builds the handler of the built-in host name, or of its mutant
// when mutant is not "", to serve it; the names are checked by [Check]
// first. Only a process that will serve the host calls it: building the
// reference host starts its containment probe.
func Handler(name, mutant string) (jsonrpc.Handler, error) {
	if err := Check(name, mutant); err != nil {
		return nil, err
	}
	if mutant == "" {
		return hosts[name](), nil
	}
	m, _ := mutants.Lookup(mutant)
	return newReference(m.Options()), nil
}

// CheckOf is [Check] that also accepts a permitted variation of
// MutantHost (package variants) when variant is not ""; a mutant and a
// variant together are an error. It builds no host.
func CheckOf(name, mutant, variant string) error {
	if variant == "" {
		return Check(name, mutant)
	}
	if mutant != "" {
		return fmt.Errorf("--mutant and --variant exclude each other")
	}
	if name != MutantHost {
		return fmt.Errorf("--variant needs the %q host, not %q", MutantHost, name)
	}
	if _, ok := variants.Lookup(variant); !ok {
		return fmt.Errorf("unknown variant %q (known: %s)", variant, strings.Join(variants.Names(), ", "))
	}
	return nil
}

// Argv is the command line of the host that --host name, --mutant mutant
// and --variant variant select: [Command]'s, with the mutant or variant
// appended once [CheckOf] finds it in the static tables (no host is
// built). An error names the flag at fault.
func Argv(name, mutant, variant string) ([]string, error) {
	argv, err := Command(name)
	if err != nil {
		return nil, err
	}
	if mutant != "" {
		if err := Check(name, mutant); err != nil {
			return nil, fmt.Errorf("--mutant %q: %w (see `conform host mutants`)", mutant, err)
		}
		argv = append(argv, "--mutant", mutant)
	}
	if variant != "" {
		if err := CheckOf(name, mutant, variant); err != nil {
			return nil, fmt.Errorf("--variant %q: %w (see `conform selftest --list`)", variant, err)
		}
		argv = append(argv, "--variant", variant)
	}
	return argv, nil
}

// HandlerOf is [Handler] that also serves a permitted variation of
// MutantHost when variant is not ""; the names are checked by [CheckOf].
func HandlerOf(name, mutant, variant string) (jsonrpc.Handler, error) {
	if variant == "" {
		return Handler(name, mutant)
	}
	if err := CheckOf(name, mutant, variant); err != nil {
		return nil, err
	}
	v, _ := variants.Lookup(variant)
	return v.Handler(), nil
}

// ServeMutant serves the built-in host name, or its mutant when mutant is
// not "", on standard input and output until the harness shuts it down.
func ServeMutant(name, mutant string) error { return ServeHost(name, mutant, "") }

// ServeHost serves the built-in host name, its mutant or its variant (see
// [HandlerOf]) on standard input and output until the harness shuts it down.
func ServeHost(name, mutant, variant string) error {
	h, err := HandlerOf(name, mutant, variant)
	if err != nil {
		return err
	}
	return kit.Serve(context.Background(), os.Stdin, os.Stdout, h)
}

// MaybeServe serves a built-in host and exits when the process was started
// as `<exe> host serve ARGS...` (for example `<exe> host serve reference
// --mutant MUTANT`), with the exit status of [ServeMain]: the request is
// parsed by [ParseServe], as the conform command table parses it, so a
// malformed one exits 2 with the same message either way. It runs the
// in-sandbox containment probe helper and exits when the process was
// started as `<exe> host containment-probe` (the reference host re-executes
// its own binary that way); otherwise it sets hostproc.CacheEnv for the hosts
// this process will start (see shareCache) and returns. The conform binary
// and every test binary that starts built-in hosts call it first thing.
func MaybeServe() {
	if n := len(reference.ProbeHelperArgs); len(os.Args) == 1+n && slices.Equal(os.Args[1:], reference.ProbeHelperArgs) {
		os.Exit(command.ProbeHelperMain(os.Stdout))
	}
	if len(os.Args) >= 3 && os.Args[1] == "host" && os.Args[2] == "serve" {
		os.Exit(ServeMain(os.Args[3:], os.Stdout, os.Stderr))
	}
	shareCache()
}

// MaybeServeTest is MaybeServe for a test binary: unless hostproc.CacheEnv
// is set, it first points it at a directory of the user's own under
// os.TempDir(), so that neither the tests nor the built-in hosts they start
// read or write the user's cache. Every TestMain that serves built-in hosts
// calls it instead of MaybeServe; it is the seam through which tests choose
// the cache, where shipped code makes no test-only decision.
func MaybeServeTest() {
	if _, set := os.LookupEnv(hostproc.CacheEnv); !set {
		os.Setenv(hostproc.CacheEnv, filepath.Join(os.TempDir(), fmt.Sprintf("conform-test-cache-%d", os.Geteuid())))
	}
	MaybeServe()
}

// shareCache points hostproc.CacheEnv at this process's cache directory unless
// it is set: hosts get a fresh HOME and TMPDIR per session, and the
// variable, which the harness passes to its built-in hosts only (see
// hostproc.Trusted), is how the reference host finds its verified
// containment probe again.
func shareCache() {
	if _, set := os.LookupEnv(hostproc.CacheEnv); set {
		return
	}
	if dir := command.DefaultProbeCacheDir(); dir != "" {
		os.Setenv(hostproc.CacheEnv, dir)
	}
}
