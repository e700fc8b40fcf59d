package catalog

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/core/schema"
)

var (
	idPattern        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9]+)+$`) })
	modelNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_]*$`) })
	versionPattern   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`) })
)

// CheckDescriptor applies the per-descriptor assertions of CONTRACTS §4.3
// and returns the first failure: the canonical ID, model name and version
// patterns; input and output schemas in the subset (CONTRACTS §5.2); an
// output schema that declares at least one property (CONTRACTS §4.2);
// owner "extension" with an extensionId and owner "mcp" with a serverId;
// transport "extension" or "mcp" only with the owner of the same name.
func CheckDescriptor(d Descriptor) error {
	switch {
	case !idPattern().MatchString(d.ID):
		return fmt.Errorf("tool ID %q does not match %s", d.ID, idPattern())
	case !modelNamePattern().MatchString(d.ModelName):
		return fmt.Errorf("tool %q: model name %q does not match %s", d.ID, d.ModelName, modelNamePattern())
	case !versionPattern().MatchString(d.Version):
		return fmt.Errorf("tool %q: version %q is not MAJOR.MINOR.PATCH", d.ID, d.Version)
	}
	for _, s := range []struct {
		name   string
		schema map[string]any
	}{{"inputSchema", d.InputSchema}, {"outputSchema", d.OutputSchema}} {
		if problems := schema.CheckDefinition(s.schema); len(problems) > 0 {
			return fmt.Errorf("tool %q: %s is not in the supported subset: %s", d.ID, s.name, strings.Join(problems, "; "))
		}
	}
	if props, _ := d.OutputSchema["properties"].(map[string]any); len(props) == 0 {
		return fmt.Errorf("tool %q: outputSchema declares no properties", d.ID)
	}
	switch {
	case d.Source.Owner == OwnerExtension && d.Source.ExtensionID == "":
		return fmt.Errorf("tool %q: source owner %q needs an extensionId", d.ID, OwnerExtension)
	case d.Source.Owner == OwnerMCP && d.Source.ServerID == "":
		return fmt.Errorf("tool %q: source owner %q needs a serverId", d.ID, OwnerMCP)
	case d.Transport == TransportExtension && d.Source.Owner != OwnerExtension:
		return fmt.Errorf("tool %q: transport %q needs source owner %q, got %q", d.ID, TransportExtension, OwnerExtension, d.Source.Owner)
	case d.Transport == TransportMCP && d.Source.Owner != OwnerMCP:
		return fmt.Errorf("tool %q: transport %q needs source owner %q, got %q", d.ID, TransportMCP, OwnerMCP, d.Source.Owner)
	}
	return nil
}

// CheckDescriptors runs [CheckDescriptor] on each descriptor in order and
// rejects a repeated canonical ID or model name with the original's exact
// messages "Duplicate canonical tool ID: <id>" and "Duplicate model-facing
// tool name: <name>" (CONTRACTS §4.3). It returns the first failure.
func CheckDescriptors(descriptors []Descriptor) error {
	ids := map[string]bool{}
	names := map[string]bool{}
	for _, d := range descriptors {
		if err := CheckDescriptor(d); err != nil {
			return err
		}
		if ids[d.ID] {
			return fmt.Errorf("Duplicate canonical tool ID: %s", d.ID)
		}
		if names[d.ModelName] {
			return fmt.Errorf("Duplicate model-facing tool name: %s", d.ModelName)
		}
		ids[d.ID] = true
		names[d.ModelName] = true
	}
	return nil
}
