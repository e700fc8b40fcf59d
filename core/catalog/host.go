package catalog

// HostCatalog is the tool catalog as the harness sends it to a host in
// `initialize`: the full descriptors with their input and output JSON
// Schemas, from which the host builds its active tool set (applying mode,
// permissions and its own available tools, CONTRACTS §8.1) and validates
// arguments and results. Schemas are in the subset of CONTRACTS §5; input
// path properties carry the ECMAScript WORKSPACE_PATH pattern (CONTRACTS
// §6.1), which a host without lookahead support must evaluate as code.
type HostCatalog struct {
	SchemaVersion    string       `json:"schemaVersion"`
	DefinitionBudget int          `json:"definitionBudget"`
	Tools            []Descriptor `json:"tools"`
}

// ForHost returns the core catalog in the form of [HostCatalog].
func ForHost() HostCatalog {
	return HostCatalog{SchemaVersion: SchemaVersion, DefinitionBudget: DefinitionBudget, Tools: Core()}
}
