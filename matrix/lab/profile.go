package lab

import (
	"slices"

	"github.com/galaxy-stack/conform/hosts/wire"
)

// ToolProfile names the tool profile a host's advertised tools make up:
// "full_contract" when they include the nine optional tools a
// full_contract fixture needs, "host" otherwise.
func ToolProfile(tools []string) string {
	for _, t := range fullContractTools {
		if !slices.Contains(tools, t) {
			return wire.ToolProfileHost
		}
	}
	return wire.ToolProfileFullContract
}
