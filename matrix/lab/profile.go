package lab

import (
	"slices"

	"github.com/galaxy-stack/conform/matrix/fixture"
)

// ToolProfile names the tool profile a host's advertised tools make up:
// "full_contract" when they include the nine optional tools a
// full_contract fixture needs, "host" otherwise.
func ToolProfile(tools []string) string {
	for _, t := range fullContractTools {
		if !slices.Contains(tools, t) {
			return fixture.ToolProfileHost
		}
	}
	return fixture.ToolProfileFullContract
}
