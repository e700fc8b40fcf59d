package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/galaxy-stack/conform/internal/redact"
)

// hostFlags are the flags that name the host under test, shared by
// certify and run.
type hostFlags struct {
	host, mutant, coreFault, variant string
}

// addHostFlags declares --host, --mutant and --core-fault on fs.
func addHostFlags(fs *flag.FlagSet) *hostFlags {
	f := &hostFlags{}
	fs.StringVar(&f.host, "host", "", "the host under test: a built-in name or a command line")
	fs.StringVar(&f.mutant, "mutant", "", "serve the named fault `NAME` of the reference host (with --host reference)")
	fs.StringVar(&f.variant, "variant", "", "serve the named permitted variation `NAME` of the reference host (with --host reference; see 'conform selftest --list')")
	fs.StringVar(&f.coreFault, "core-fault", "", "switch on the named fault `NAME` of conform's own core runtime (see 'conform selftest --list')")
	return f
}

// hostEnv is the value of the repeatable --host-env flag: names of
// environment variables passed to the host in addition to the allowlist.
type hostEnv []string

func (h *hostEnv) String() string { return strings.Join(*h, ",") }

func (h *hostEnv) Set(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty variable name")
	case strings.ContainsAny(name, "=\x00"):
		return fmt.Errorf("%q: give the variable's name only (it is passed with its value from conform's environment), without '='", name)
	}
	*h = append(*h, name)
	return nil
}

// redactSecrets makes the process's redactor redact the values of the
// variables h passes to the host, as well as those of conform's own
// variables whose names look secret (see package redact).
func (h *hostEnv) redactSecrets() { redact.Use(redact.FromEnv(os.Environ(), *h)) }

// addHostEnvFlag declares --host-env on fs.
func addHostEnvFlag(fs *flag.FlagSet) *hostEnv {
	h := &hostEnv{}
	fs.Var(h, "host-env", "pass the environment variable `NAME` to the host as well as the allowlist (repeatable); its value is redacted from all output")
	return h
}
