package approval

import (
	"slices"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
)

// Modes returns the task modes in the order of CONTRACTS §3.
func Modes() []string {
	return []string{port.ModeAuto, port.ModeScaffold, port.ModeRefactor,
		port.ModeReviewOnly, port.ModeValidateOnly}
}

// modeAllows applies the task-mode filter of CONTRACTS §3.1
// (catalog.AllowedInMode) and fails closed on an unknown mode: the original
// allows every tool there, but a host may receive the mode from outside the
// core's request validation.
func modeAllows(tool catalog.Descriptor, mode string) bool {
	return slices.Contains(Modes(), mode) && catalog.AllowedInMode(tool, mode)
}
