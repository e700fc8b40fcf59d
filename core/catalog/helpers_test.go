package catalog_test

import (
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
)

// allPermissions are the permissions the core catalog uses.
var allPermissions = []string{
	catalog.PermCoreArtifacts, catalog.PermCoreStorage, catalog.PermFSWorkspace, catalog.PermNetworkOutbound,
	catalog.PermPreviewLocal, catalog.PermProcessExecute, catalog.PermUserInteraction,
}

// fullOptions offers every core tool with every permission in mode.
func fullOptions(mode string) catalog.Options {
	return catalog.Options{AvailableToolIDs: catalog.IDs(), GrantedPermissions: allPermissions, Mode: mode}
}

// fullRegistry is the registry of fullOptions("auto").
func fullRegistry() *catalog.Registry {
	s, err := catalog.NewSnapshot(fullOptions(port.ModeAuto))
	if err != nil {
		panic(err)
	}
	r, err := catalog.NewRegistry(s)
	if err != nil {
		panic(err)
	}
	return r
}

func tool(id string) catalog.Descriptor {
	d, ok := catalog.ByID(id)
	if !ok {
		panic("missing catalog tool " + id)
	}
	return d
}

func ids(ds []catalog.Descriptor) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.ID)
	}
	return out
}

func capabilities(image, thinking, tools string) port.ModelCapabilities {
	return port.ModelCapabilities{Input: port.InputCapabilities{Image: image}, Thinking: thinking, ToolCalling: tools}
}
