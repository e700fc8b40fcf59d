package lab

import (
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/hosts/proxy"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// capabilityOf names the initialize capability (hosts/wire/PROTOCOL.md,
// "initialize": capabilities) that serves method, or "" when method is
// served whatever the host declares. A host that declares a capability
// false is never sent its methods: conform's memory store and trace stand
// in for store/* and trace/*, and the core verifies no fingerprint
// without workspace/fingerprint.
func capabilityOf(method string) string {
	switch {
	case strings.HasPrefix(method, "store/"):
		return "store"
	case strings.HasPrefix(method, "trace/"):
		return "trace"
	case method == wire.MethodFingerprint:
		return "fingerprint"
	}
	return ""
}

// declared reports whether caps declares the named capability.
func declared(caps wire.HostCapabilities, name string) bool {
	switch name {
	case "store":
		return caps.Store
	case "trace":
		return caps.Trace
	case "fingerprint":
		return caps.Fingerprint
	case "spill":
		return caps.Spill
	}
	return true
}

// AbsentCapability returns why a scenario that injects faults cannot apply
// to a host whose initialize declared caps — the first fault aimed at a
// method of a capability the host declares absent, which the host is then
// never sent, so the fault could not fire — or "". The index is the
// fault's in the fixture's conform.faults.
func AbsentCapability(caps wire.HostCapabilities, faults []proxy.Rule) (index int, reason string) {
	for i, f := range faults {
		name := capabilityOf(f.Method)
		if name == "" || declared(caps, name) {
			continue
		}
		return i, fmt.Sprintf("the scenario injects a %s fault into %s, and the host's initialize declares capabilities.%s false: conform sends it no %s, so the fault cannot reach it (hosts/wire/PROTOCOL.md, initialize)",
			f.Action, f.Method, name, f.Method)
	}
	return -1, ""
}
