package catalog

import (
	"fmt"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/clone"
	"github.com/galaxy-stack/conform/core/port"
)

// ModelDefinition returns the model-facing definition of d (CONTRACTS
// §8.2): {"type":"function","function":{"name":modelName,
// "description":description,"parameters":inputSchema}}. The parameters are
// a deep copy.
func ModelDefinition(d Descriptor) port.ToolDefinition {
	return port.ToolDefinition{
		Type: "function",
		Function: port.FunctionSpec{
			Name:        d.ModelName,
			Description: d.Description,
			Parameters:  clone.Object(d.InputSchema),
		},
	}
}

// EstimateDefinitionTokens estimates the tokens definitions take
// (CONTRACTS §8.2): the UTF-16 length of their compact JSON text divided by
// four, rounded up. The text is encoded without HTML escaping, as
// JavaScript's JSON.stringify writes it; key order does not change the
// length.
func EstimateDefinitionTokens(definitions []port.ToolDefinition) int {
	if definitions == nil {
		definitions = []port.ToolDefinition{}
	}
	b, err := canon.Stringify(definitions)
	if err != nil {
		panic(fmt.Sprintf("catalog: encode definitions: %v", err))
	}
	n := canon.UTF16Len(string(b))
	return (n + 3) / 4
}
